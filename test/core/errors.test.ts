import { describe, expect, it } from 'vitest';
import { DiagnosticsError, ExitCode, RefusedError, formatDiagnostic } from '../../src/core/errors.js';

describe('formatDiagnostic', () => {
  it('puts file:line:col first, as compilers do', () => {
    const text = formatDiagnostic({
      severity: 'error',
      code: 'SB_SCHEMA',
      message: 'unknown field "markupp"',
      source: { file: 'tenants/acme.yaml', line: 7, column: 3 },
    });
    expect(text).toBe('tenants/acme.yaml:7:3: error SB_SCHEMA: unknown field "markupp"');
  });

  it('falls back to the address when there is no source position', () => {
    const text = formatDiagnostic({ severity: 'warning', code: 'SB_X', message: 'm', address: 'tenant/acme' });
    expect(text).toBe('tenant/acme: warning SB_X: m');
  });
});

describe('error classes', () => {
  it('map safety refusals to exit 3 and diagnostics to exit 1', () => {
    expect(new RefusedError('SB_STALE', 'stale').exitCode).toBe(ExitCode.refused);
    const d = new DiagnosticsError([
      { severity: 'error', code: 'A', message: 'a' },
      { severity: 'warning', code: 'B', message: 'b' },
    ]);
    expect(d.exitCode).toBe(ExitCode.error);
    expect(d.message).toBe('1 error(s) found');
  });
});
