/** The crash test's journal reader: a torn last line is tolerated and reported, anything else is corruption. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJournals, writeIntents } from './support/journal-check.js';

const line = (o: Record<string, unknown>) => `${JSON.stringify(o)}\n`;

describe('journal reader (crash safety support)', () => {
  it('tolerates and reports a torn last line; reports a broken line elsewhere as corruption', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-journal-'));
    const intent = {
      type: 'intent',
      seq: 1,
      address: 'tenant/a',
      method: 'POST',
      path: '/api/v01/draas/demo/tenants',
      purpose: 'create',
    };
    await writeFile(join(dir, 'journal-1.jsonl'), line(intent) + '{"type":"outcome","seq":1,"ok":tr');
    await writeFile(
      join(dir, 'journal-2.jsonl'),
      line(intent) + '{"type":"intent",\n' + line({ ...intent, seq: 2, method: 'PUT', path: '/x/a%40b' }),
    );
    await writeFile(join(dir, 'journal-3.jsonl'), line({ type: 'mystery' }));
    const report = await readJournals(dir);
    expect(report.files).toHaveLength(3);
    expect(report.torn).toEqual([join(dir, 'journal-1.jsonl')]);
    expect(report.corrupt).toHaveLength(2);
    expect(report.corrupt[0]).toMatch(/^journal-2\.jsonl:2: /);
    expect(report.corrupt[1]).toBe('journal-3.jsonl:1: unknown type mystery');
    expect(writeIntents(report.lines)).toEqual(
      new Map([
        ['POST /api/v01/draas/demo/tenants', 2],
        ['PUT /x/a@b', 1],
      ]),
    );
  });
});
