import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvField, renderAudit } from '../../src/apply/audit-format.js';
import { auditJournals, globPattern } from '../../src/apply/audit.js';

const line = (value: object) => `${JSON.stringify({ at: '2026-11-22T10:00:00.000Z', ...value })}\n`;

async function journal(text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'sb-audit-')), 'journal.jsonl');
  await writeFile(file, text);
  return file;
}

describe('auditJournals', () => {
  it('reads a journal written before runs were recorded: the rows, with what is known', async () => {
    const file = await journal(
      line({ type: 'run', event: 'start', runId: 'r1', changes: 1 }) +
        line({ type: 'intent', seq: 1, address: 'tenant/a', method: 'POST', path: '/t', purpose: 'create' }) +
        line({
          type: 'outcome',
          seq: 1,
          address: 'tenant/a',
          ok: false,
          status: 409,
          code: 'X',
          message: 'exists',
          ms: 3,
        }) +
        line({ type: 'change', address: 'tenant/a', action: 'create', outcome: 'failed', message: 'exists' }),
    );
    const { rows, problems } = await auditJournals([file]);
    expect(problems).toEqual([]);
    expect(rows).toEqual([
      expect.objectContaining({
        actor: '',
        address: 'tenant/a',
        outcome: 'failed',
        httpStatus: 409,
        planDigest: '',
        commit: '',
        dirty: null,
        runId: 'r1',
        message: 'exists',
        journal: `${file}:4`,
      }),
    ]);
  });

  it("names a routing-only run's actor by the routing engine's user", async () => {
    const file = await journal(
      line({
        type: 'run',
        event: 'start',
        runId: 'r2',
        routingActor: { username: 'routing', login: 'password' },
        plan: { digest: null, source: 'planned in this run' },
      }) + line({ type: 'change', address: 'routing/s/v/t/k=1', action: 'create', outcome: 'applied' }),
    );
    const { rows } = await auditJournals([file]);
    expect(rows[0]).toMatchObject({ actor: 'routing', login: 'password', plan: 'planned in this run', planDigest: '' });
  });

  it('reports torn and foreign lines by file:line and keeps going', async () => {
    const file = await journal(
      'not json\n' +
        line({ type: 'mystery' }) +
        `${JSON.stringify({ type: 'change', address: 'x' })}\n` +
        line({ type: 'change', address: 'tenant/b', action: 'delete' }) +
        line({ type: 'change', address: 'tenant/c', action: 'delete', outcome: 'applied' }),
    );
    const { rows, problems } = await auditJournals([file]);
    expect(rows.map((r) => r.address)).toEqual(['tenant/c']);
    expect(problems.map((p) => `${p.line}: ${p.reason}`)).toEqual([
      '1: torn line (not JSON): the run was stopped while writing it?',
      '2: not a switchboard journal line (unknown type "mystery")',
      '3: not a switchboard journal line (no time)',
      '4: not a switchboard journal line (a change without address, action and outcome)',
    ]);
  });
});

describe('audit formats', () => {
  it('CSV: quotes what must be, and keeps a formula from running in a spreadsheet', () => {
    expect(csvField('tenant/a')).toBe('tenant/a');
    expect(csvField('a,b "c"')).toBe('"a,b ""c"""');
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+32 2 123')).toBe(`"'+32 2 123"`);
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
  });

  it('markdown: cells made inert', () => {
    const row = {
      time: 't',
      actor: '<img src=x onerror=alert(1)>',
      login: 'password',
      address: 'tenant/a|b',
      action: 'create',
      outcome: 'applied',
      httpStatus: 201,
      planDigest: '',
      plan: '',
      commit: '',
      dirty: null,
      ciRun: '',
      runId: 'r',
      message: '@team look',
      journal: 'j:1',
    };
    const md = renderAudit([row], 'markdown');
    expect(md).not.toContain('<img');
    expect(md.split('\n')[2]?.split(' | ')).toHaveLength(13);
    expect(md).not.toContain('@team');
  });

  it('address globs: * any characters (a subtree too), ? one', () => {
    expect(globPattern('tenant/acme*').test('tenant/acme-corp/subscription/main')).toBe(true);
    expect(globPattern('tenant/acme').test('tenant/acme-corp')).toBe(false);
    expect(globPattern('tenant/?cme').test('tenant/acme')).toBe(true);
    expect(globPattern('routing/(x)+').test('routing/(x)+')).toBe(true);
  });
});
