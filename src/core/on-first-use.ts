import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A dependency that most runs never need, required at its first use instead of at every
 * start: its CommonJS build, synchronously (a pattern is compiled, a logger made, while a
 * document is built), and never with `import()`, which the CLI's code-cached bundle cannot
 * hold (src/core/code-cache.ts).
 */
export function requiredOnFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}
