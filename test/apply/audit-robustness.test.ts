/**
 * docs/audit.md: nothing in a journal stops the audit or reaches the table unchecked. A run
 * killed before its change lines still shows what it had sent (outcome `unknown`); a run
 * record whose members have the wrong types gives rows with those columns empty, and a note.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderAudit } from '../../src/apply/audit-format.js';
import { auditJournals } from '../../src/apply/audit.js';

const line = (value: object, at = '2026-11-22T10:00:00.000Z') => `${JSON.stringify({ at, ...value })}\n`;
const start = (runId: string, extra: object = {}) => line({ type: 'run', event: 'start', runId, ...extra });
const end = (runId: string) => line({ type: 'run', event: 'end', runId });
const intent = (seq: number, address: string, method: string, purpose: string) =>
  line({ type: 'intent', seq, address, method, path: `/x/${seq}`, purpose });
const outcome = (seq: number, address: string, status: number) =>
  line({ type: 'outcome', seq, address, ok: status < 400, status, ms: 1 });
const change = (address: string, extra: object = {}) =>
  line({ type: 'change', address, action: 'update', outcome: 'applied', ...extra });

async function journal(text: string, name = 'journal.jsonl', dir?: string): Promise<string> {
  const folder = dir ?? (await mkdtemp(join(tmpdir(), 'sb-audit-robust-')));
  const file = join(folder, name);
  await writeFile(file, text);
  return file;
}

describe('audit of a run that did not finish', () => {
  it('lists each change it had sent a write for as unknown, and says the run has no end line', async () => {
    const file = await journal(
      start('killed', { actor: { username: 'ci-apply', login: 'token' } }) +
        intent(1, 'tenant/initech', 'POST', 'create') +
        outcome(1, 'tenant/initech', 201) +
        change('tenant/initech', { action: 'create' }) +
        intent(2, 'tenant/globex', 'PUT', 'update') +
        outcome(2, 'tenant/globex', 200) +
        // A read alone changes nothing: no row.
        intent(3, 'switchboard killed bulk', 'GET', 'find bulk job') +
        intent(4, 'tenant/hooli', 'DELETE', 'delete'),
    );
    const { rows, problems } = await auditJournals([file]);
    expect(rows.map((r) => `${r.address} ${r.action} ${r.outcome}`)).toEqual([
      'tenant/initech create applied',
      'tenant/globex update unknown',
      'tenant/hooli delete unknown',
    ]);
    expect(rows[1]).toMatchObject({ actor: 'ci-apply', runId: 'killed', httpStatus: 200, journal: `${file}:5` });
    expect(rows[1]?.message).toContain('the run did not finish');
    expect(rows[1]?.message).toContain('update: PUT /x/2');
    expect(rows[1]?.message).toContain('answered 200');
    expect(rows[2]?.message).toContain('no answer recorded');
    expect(problems).toEqual([
      {
        file,
        line: 1,
        note: true,
        reason:
          'run killed has no end line: it did not finish (killed?); 2 change(s) it had sent a request for are listed with the outcome unknown',
      },
    ]);
  });

  it("a routing table's write is settled by its rows' lines; a run followed by another start is unfinished too", async () => {
    const table = 'routing/draas/standby/routes';
    const file = await journal(
      start('first') +
        intent(1, table, 'ROUTING', '2 row changes') +
        change(`${table}/number=+1`, { action: 'create' }) +
        change(`${table}/number=+2`, { action: 'create' }) +
        intent(2, 'routing/draas/standby/other', 'ROUTING', '5 row changes') +
        start('second') +
        change('tenant/a') +
        end('second'),
    );
    const { rows, problems } = await auditJournals([file]);
    expect(rows.map((r) => `${r.runId} ${r.address} ${r.action} ${r.outcome}`)).toEqual([
      `first ${table}/number=+1 create applied`,
      `first ${table}/number=+2 create applied`,
      'first routing/draas/standby/other routing unknown',
      'second tenant/a update applied',
    ]);
    expect(problems.map((p) => `${p.line} ${p.reason}`)).toEqual([
      '1 run first has no end line: it did not finish (killed?); 1 change(s) it had sent a request for are listed with the outcome unknown',
    ]);
  });

  it('a finished run gives no such row and no note', async () => {
    const file = await journal(
      start('done') + intent(1, 'tenant/a', 'PUT', 'update') + change('tenant/a') + end('done'),
    );
    const { rows, problems } = await auditJournals([file]);
    expect(rows.map((r) => r.outcome)).toEqual(['applied']);
    expect(problems).toEqual([]);
  });
});

describe('audit of a malformed run record', () => {
  const malformed = start('bad', {
    actor: { username: { first: 'mallory' }, login: 7 },
    plan: { digest: ['sha256:x'], changeSetDigest: 5, source: 'file', file: {} },
    git: { commit: { sha: 'abc' }, dirty: 'no' },
    ci: { system: 'github-actions', vars: { GITHUB_ACTOR: 42, GITHUB_RUN_ID: '9' } },
    review: { pullRequest: '7', reviewedChangeSet: 1, approvedBy: ['alice', 3] },
    emergencyChange: 'OPS-1',
  });

  it('leaves each member of the wrong type out, with a note, and renders every format', async () => {
    const file = await journal(malformed + change('tenant/a') + end('bad'));
    const { rows, problems } = await auditJournals([file]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor: '',
      login: '',
      planDigest: '',
      changeSetDigest: '',
      plan: 'file ',
      commit: '',
      dirty: null,
      ciActor: '',
      ciRun: 'github-actions 9',
      pullRequest: null,
      reviewedChangeSet: '',
      approvedBy: ['alice'],
      emergencyChange: '',
    });
    expect(problems.every((p) => p.note === true && p.line === 1)).toBe(true);
    expect(problems.map((p) => p.reason).sort()).toEqual(
      [
        "the run record's ci.vars.GITHUB_ACTOR is not a string: left out",
        "the run record's review.pullRequest is not a positive whole number: left out",
        "the run record's emergencyChange is not an object: left out",
        "the run record's plan.file is not a string: left out",
        "the run record's actor.username is not a string: left out",
        "the run record's actor.login is not a string: left out",
        "the run record's review.approvedBy is not a list of strings: left out",
        "the run record's plan.digest is not a string: left out",
        "the run record's plan.changeSetDigest is not a string: left out",
        "the run record's review.reviewedChangeSet is not a string: left out",
        "the run record's git.commit is not a string: left out",
        "the run record's git.dirty is not true or false: left out",
      ].sort(),
    );
    for (const format of ['csv', 'json', 'markdown'] as const) {
      const text = renderAudit(rows, format);
      expect(text).not.toContain('[object Object]');
      expect(text).toContain('tenant/a');
    }
    expect(renderAudit(rows, 'csv')).not.toMatch(/,yes,|,no,/);
  });

  it('a ci record without vars, or a record of the wrong shape, never stops the audit of a folder', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'sb-audit-folder-'));
    await mkdir(join(folder, 'runs'));
    await journal(
      start('novars', { ci: { system: 'github-actions' } }) + change('tenant/a') + end('novars'),
      'a.jsonl',
      join(folder, 'runs'),
    );
    await journal(
      start('shapes', { git: 'abc', ci: [], plan: null, runId: 3 }) + change('tenant/b') + end('shapes'),
      'b.jsonl',
      join(folder, 'runs'),
    );
    await journal(
      start('good', { git: { commit: 'c0ffee', dirty: false } }) + change('tenant/c') + end('good'),
      'c.jsonl',
      join(folder, 'runs'),
    );
    const { rows, problems } = await auditJournals([folder]);
    expect(rows.map((r) => `${r.address} ${r.ciRun} ${r.commit}`)).toEqual([
      'tenant/a github-actions ',
      'tenant/b  ',
      'tenant/c  c0ffee',
    ]);
    expect(problems.map((p) => p.reason)).toEqual([
      "the run record's git is not an object: left out",
      "the run record's ci is not an object: left out",
      "the run record's runId is not a string: left out",
    ]);
  });
});
