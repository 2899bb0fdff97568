/**
 * The formats of the audit table (audit-format.ts renders them): a module of its own, so
 * that registering `audit`'s options loads no renderer and no kind table.
 */
export const AUDIT_FORMATS = ['csv', 'json', 'markdown'] as const;
export type AuditFormat = (typeof AUDIT_FORMATS)[number];
