/**
 * The formats of `coverage` (coverage-formats.ts renders them): a module of its own, so that
 * registering the command's options loads no renderer.
 */
export const COVERAGE_FORMATS = ['text', 'markdown', 'json', 'csv', 'html'] as const;
export type CoverageFormat = (typeof COVERAGE_FORMATS)[number];
