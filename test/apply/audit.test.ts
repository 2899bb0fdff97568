import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { csvField, fieldsText, renderAudit } from '../../src/apply/audit-format.js';
import { auditJournals, globPattern, type AuditRow } from '../../src/apply/audit.js';
import { Journal, fieldChanges, withSources } from '../../src/apply/journal.js';
import { SENSITIVE, WRITE_ONLY, type Change } from '../../src/plan/types.js';
import { reviewFromEnv } from '../../src/run/review.js';

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
        line({ type: 'change', address: 'tenant/a', action: 'create', outcome: 'failed', message: 'exists' }) +
        line({ type: 'run', event: 'end', runId: 'r1' }),
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

function auditRow(over: Partial<AuditRow> = {}): AuditRow {
  return {
    time: '2026-11-26T15:10:00.000Z',
    actor: 'admin',
    login: 'password',
    ciActor: 'octo',
    triggeringActor: 'octo',
    approvedBy: ['alice'],
    pullRequest: null,
    pullRequestUrl: '',
    address: 'tenant/a',
    previousAddress: '',
    kind: 'Tenant',
    action: 'update',
    outcome: 'applied',
    fields: null,
    httpStatus: 200,
    planDigest: `sha256:${'a'.repeat(64)}`,
    changeSetDigest: '',
    reviewedChangeSet: '',
    plan: 'file plan.json',
    commit: 'c0ffee',
    dirty: false,
    ciRun: '',
    runId: 'r',
    emergencyChange: '',
    message: '',
    journal: 'j:1',
    ...over,
  };
}

describe('auditJournals: periods, targets, folders, who and what', () => {
  const at = (time: string, value: object) => `${JSON.stringify({ at: time, ...value })}\n`;
  const start = (runId: string, extra: object = {}) => ({ type: 'run', event: 'start', runId, ...extra });
  const end = (runId: string) => ({ type: 'run', event: 'end', runId });
  const change = (address: string, extra: object = {}) => ({
    type: 'change',
    address,
    action: 'update',
    outcome: 'applied',
    ...extra,
  });

  it('--since and --until make a half-open period: consecutive months never share a change', async () => {
    const file = await journal(
      at('2026-09-30T23:59:59.999Z', start('r')) +
        at('2026-09-30T23:59:59.999Z', change('tenant/sept')) +
        at('2026-10-01T00:00:00.000Z', change('tenant/oct-first')) +
        at('2026-10-31T23:59:59.999Z', change('tenant/oct-last')) +
        at('2026-11-01T00:00:00.000Z', change('tenant/nov')),
    );
    const october = await auditJournals([file], { since: new Date('2026-10-01'), until: new Date('2026-11-01') });
    expect(october.rows.map((r) => r.address)).toEqual(['tenant/oct-first', 'tenant/oct-last']);
    const november = await auditJournals([file], { since: new Date('2026-11-01') });
    expect(november.rows.map((r) => r.address)).toEqual(['tenant/nov']);
  });

  it('--target matches as plan --target does (the address, its subtree, a prefix*), and a former address', async () => {
    const file = await journal(
      line(start('r')) +
        line(change('tenant/acme')) +
        line(change('tenant/acme/subscription/main')) +
        line(change('tenant/acme-corp')) +
        line(change('tenant/acmeX')) +
        line(change('tenant/new-name', { previousAddress: 'tenant/acme-old' })) +
        line(change('reseller/acme')),
    );
    const of = async (targets: string[]) => (await auditJournals([file], { targets })).rows.map((r) => r.address);
    expect(await of(['tenant/acme'])).toEqual(['tenant/acme', 'tenant/acme/subscription/main']);
    expect(await of(['tenant/acme-corp*'])).toEqual(['tenant/acme-corp']);
    expect(await of(['tenant/acme*'])).toEqual([
      'tenant/acme',
      'tenant/acme/subscription/main',
      'tenant/acme-corp',
      'tenant/acmeX',
      'tenant/new-name',
    ]);
    expect(await of(['tenant/acme-old'])).toEqual(['tenant/new-name']);
    expect(await of(['reseller/acme', 'tenant/acmeX'])).toEqual(['tenant/acmeX', 'reseller/acme']);
  });

  it('reads a folder of journals at any depth, in path order, and follows no symbolic link inside it', async () => {
    const history = await mkdtemp(join(tmpdir(), 'sb-audit-history-'));
    await mkdir(join(history, '2026/run-2'), { recursive: true });
    await mkdir(join(history, '2026/run-1'), { recursive: true });
    await writeFile(
      join(history, '2026/run-2/journal.jsonl'),
      line(start('r2')) + line(change('tenant/b')) + line(end('r2')),
    );
    await writeFile(
      join(history, '2026/run-1/journal.jsonl'),
      line(start('r1')) + line(change('tenant/a')) + line(end('r1')),
    );
    await writeFile(join(history, '2026/run-1/plan.json'), '{"not":"a journal"}');
    const outside = await journal(line(start('secret')) + line(change('tenant/outside')));
    await symlink(outside, join(history, '2026/linked.jsonl'));
    await symlink(join(outside, '..'), join(history, 'linked-folder'));
    const { rows, problems, files } = await auditJournals([history]);
    expect(files).toEqual([join(history, '2026/run-1/journal.jsonl'), join(history, '2026/run-2/journal.jsonl')]);
    expect(rows.map((r) => `${r.runId} ${r.address}`)).toEqual(['r1 tenant/a', 'r2 tenant/b']);
    expect(problems).toEqual([
      { file: join(history, '2026/linked.jsonl'), line: 0, reason: 'a symbolic link: not followed' },
      { file: join(history, 'linked-folder'), line: 0, reason: 'a symbolic link: not followed' },
    ]);
    // The same journal named twice (the folder and the file) is read once.
    expect((await auditJournals([history, join(history, '2026/run-1/journal.jsonl')])).rows).toHaveLength(2);
    const empty = await mkdtemp(join(tmpdir(), 'sb-audit-empty-'));
    await expect(auditJournals([empty])).rejects.toThrow(`no journal (*.jsonl) in the folder ${empty} or below it`);
  });

  it('reads who applied, ran, triggered, approved, from which pull request, and the fields changed', async () => {
    const file = await journal(
      line(
        start('r', {
          actor: { username: 'ci-apply', login: 'token' },
          plan: { digest: 'sha256:p', changeSetDigest: 'sha256:c', source: 'file', file: 'plan.json' },
          ci: {
            system: 'github-actions',
            url: 'https://github.com/acme/platform/actions/runs/9/attempts/2',
            vars: {
              GITHUB_SERVER_URL: 'https://github.com',
              GITHUB_REPOSITORY: 'acme/platform',
              GITHUB_ACTOR: 'merger',
              GITHUB_TRIGGERING_ACTOR: 're-runner',
            },
          },
          review: { pullRequest: 7, reviewedChangeSet: 'sha256:c', approvedBy: ['alice', 'bob'] },
        }),
      ) +
        line(change('tenant/acme', { kind: 'Tenant', fields: [{ field: 'markup', before: 4, after: 5 }] })) +
        line(change('tenant/odd', { fields: 'markup 4 → 5' })) +
        line(change('tenant/later', { outcome: 'unknown' })) +
        line(end('r')),
    );
    const { rows, problems } = await auditJournals([file]);
    expect(rows[0]).toMatchObject({
      actor: 'ci-apply',
      login: 'token',
      ciActor: 'merger',
      triggeringActor: 're-runner',
      approvedBy: ['alice', 'bob'],
      pullRequest: 7,
      pullRequestUrl: 'https://github.com/acme/platform/pull/7',
      kind: 'Tenant',
      fields: [{ field: 'markup', before: 4, after: 5 }],
      planDigest: 'sha256:p',
      changeSetDigest: 'sha256:c',
      reviewedChangeSet: 'sha256:c',
    });
    expect(rows[1]?.fields).toBeNull();
    // An outcome this version does not know (a newer journal's) is listed as written.
    expect(rows[2]?.outcome).toBe('unknown');
    expect(problems).toEqual([{ file, line: 3, reason: 'its fields are not readable: left out' }]);
  });
});

describe('the journal: each change line says what the change set', () => {
  const base = { provider: 'platform' as const, dependsOn: [], requests: [], reason: 'r' };
  const changes: Change[] = [
    {
      ...base,
      address: 'tenant/acme',
      kind: 'Tenant',
      action: 'update',
      id: 'u-1',
      before: { markup: 4, billingId: 'T-1', legacyTag: 'old' },
      after: { markup: 5, billingId: 'T-1', note: 'new' },
      patch: [{ op: 'replace', path: '/markup', value: 5 }],
    },
    {
      ...base,
      address: 'tenant/acme/admin/it@acme.example',
      kind: 'Administrator',
      action: 'update',
      // A planner bug leaving a secret in clear: the journal masks what sensitiveDigests names.
      before: { firstName: 'Ada', password: WRITE_ONLY },
      after: { firstName: 'Ada', password: 'Hunter2-in-clear' },
      patch: [{ op: 'replace', path: '/password', value: 'Hunter2-in-clear' }],
      sensitiveDigests: { password: 'sha256:x' },
    },
    {
      ...base,
      address: 'tenant/renamed',
      previousAddress: 'tenant/old-name',
      kind: 'Tenant',
      action: 'update',
      before: { markup: 1 },
      after: { markup: 1 },
      patch: [{ op: 'replace', path: '/name', value: 'renamed' }],
    },
  ];

  it('fieldChanges: the changed fields only, before → after, sensitive values as markers', () => {
    expect(fieldChanges(changes[0] as Change)).toEqual([
      { field: 'markup', before: 4, after: 5 },
      { field: 'legacyTag', before: 'old' },
      { field: 'note', after: 'new' },
    ]);
    expect(fieldChanges(changes[1] as Change)).toEqual([{ field: 'password', before: WRITE_ONLY, after: SENSITIVE }]);
  });

  it('completes the change lines of the changes it was opened with; other lines stay as written', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'sb-journal-')), 'journal.jsonl');
    const journal = await Journal.open(file, { changes });
    journal.append({ type: 'change', address: 'tenant/acme', action: 'update', outcome: 'applied' });
    journal.appendAll([
      {
        type: 'change',
        address: 'tenant/acme/admin/it@acme.example',
        action: 'update',
        outcome: 'failed',
        message: 'm',
      },
      { type: 'change', address: 'tenant/renamed', action: 'update', outcome: 'applied' },
      { type: 'change', address: 'routing/x/y/z/k=1', action: 'create', outcome: 'failed' },
    ]);
    await journal.close();
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('Hunter2');
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      kind: 'Tenant',
      fields: fieldChanges(changes[0] as Change),
    });
    expect(lines[1]).toMatchObject({
      outcome: 'failed',
      message: 'm',
      fields: [{ field: 'password', before: WRITE_ONLY, after: SENSITIVE }],
    });
    expect(lines[2]).toMatchObject({ previousAddress: 'tenant/old-name', fields: [] });
    expect(lines[3]).toEqual({
      at: lines[3]?.['at'],
      type: 'change',
      address: 'routing/x/y/z/k=1',
      action: 'create',
      outcome: 'failed',
    });
    // What audit reads back.
    const { rows } = await auditJournals([file]);
    expect(rows.map((r) => fieldsText(r.fields))).toEqual([
      ['markup: 4 → 5', 'legacyTag: "old" → (absent)', 'note: (absent) → "new"'],
      ['password: (write-only) → (sensitive)'],
      [],
      [],
    ]);
  });
});

describe('the run record: what each member proves', () => {
  it('names the source of each member present: the login authenticated, the rest computed or from the environment', () => {
    const record = withSources({
      actor: { username: 'admin', login: 'password' },
      plan: { digest: 'sha256:p', source: 'planned in this run' },
      manifests: { digest: 'sha256:m', files: 1 },
      tool: { name: 'switchboard', version: '0' },
      ci: { system: 'github-actions', vars: {} },
      review: { pullRequest: 7 },
    });
    expect(record.sources).toEqual({
      actor: 'authenticated',
      plan: 'computed',
      manifests: 'computed',
      tool: 'computed',
      ci: 'environment',
      review: 'environment',
    });
  });

  it("takes the review from the workflow's variables, and leaves out (with a note) a value of the wrong form", () => {
    const digest = `sha256:${'b'.repeat(64)}`;
    expect(
      reviewFromEnv({
        SWITCHBOARD_PULL_REQUEST: '7',
        SWITCHBOARD_REVIEWED_CHANGE_SET: digest,
        SWITCHBOARD_APPROVED_BY: 'alice, bob,alice dependabot[bot]',
      }),
    ).toEqual({
      review: { pullRequest: 7, reviewedChangeSet: digest, approvedBy: ['alice', 'bob', 'dependabot[bot]'] },
      notes: [],
    });
    expect(reviewFromEnv({})).toEqual({ notes: [] });
    expect(reviewFromEnv({ SWITCHBOARD_PULL_REQUEST: '' })).toEqual({ notes: [] });
    const bad = reviewFromEnv({
      SWITCHBOARD_PULL_REQUEST: '7; rm -rf /',
      SWITCHBOARD_REVIEWED_CHANGE_SET: 'sha256:short',
      SWITCHBOARD_APPROVED_BY: 'alice,<img src=x>',
    });
    expect(bad.review).toBeUndefined();
    expect(bad.notes).toEqual([
      'SWITCHBOARD_PULL_REQUEST is not a pull request number: left out of the run record',
      'SWITCHBOARD_REVIEWED_CHANGE_SET is not a digest (sha256: and 64 hexadecimal digits): left out of the run record',
      'SWITCHBOARD_APPROVED_BY is not a list of at most 50 logins separated by commas: left out of the run record',
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

  it('markdown: cells made inert; times and digests readable; only plain https addresses are links', () => {
    const row = auditRow({
      actor: '<img src=x onerror=alert(1)>',
      address: 'tenant/a|b',
      message: '@team look',
      fields: [{ field: 'note', before: '[x](javascript:alert(1))', after: '**b** | c' }],
      ciRun: 'https://github.com/acme/platform/actions/runs/4242/attempts/1',
      pullRequest: 7,
      pullRequestUrl: 'https://github.com/acme/platform/pull/7',
    });
    const md = renderAudit([row], 'markdown');
    expect(md).not.toContain('<img');
    expect(md).not.toContain('@team');
    expect(md).not.toContain('](javascript');
    const cells = md.split('\n')[2]?.split(' | ') ?? [];
    expect(cells).toHaveLength(md.split('\n')[0]?.split(' | ').length ?? 0);
    expect(md).toContain('| 2026-11-26T15:10:00.000Z |');
    expect(md).toContain('[#7](https://github.com/acme/platform/pull/7)');
    expect(md).toContain(
      '[https&#58;//github.com/acme/platform/actions/runs/4242/attempts/1](https://github.com/acme/platform/actions/runs/4242/attempts/1)',
    );
    expect(md).toContain(`sha256:${'a'.repeat(64)}`);
    // An address that could end the link or the cell is text, not a link.
    const odd = renderAudit([auditRow({ ciRun: 'https://x.example/a)(b|c' })], 'markdown');
    expect(odd).not.toContain('](');
    expect(odd.split('\n')[2]?.split(' | ')).toHaveLength(cells.length);
  });

  it('fields print before → after as the plan prints values, (absent) where a side has none', () => {
    expect(
      fieldsText([
        { field: 'markup', before: 4, after: 5 },
        { field: 'billingId', after: 'T-1' },
        { field: 'legacyTag', before: 'old' },
        { field: 'password', before: WRITE_ONLY, after: SENSITIVE },
        { field: 'limits', before: { users: 5, channels: 1 }, after: null },
        { field: 'evil\u001b[2J', before: 'a\nb', after: 'c' },
      ]),
    ).toEqual([
      'markup: 4 → 5',
      'billingId: (absent) → "T-1"',
      'legacyTag: "old" → (absent)',
      'password: (write-only) → (sensitive)',
      'limits: {"channels":1,"users":5} → null',
      'evil\\u001b[2J: "a\\nb" → "c"',
    ]);
    expect(fieldsText(null)).toEqual([]);
  });

  it('CSV: one column per question, the first seven where they always were, every row one line', () => {
    const csv = renderAudit(
      [
        auditRow({
          fields: [
            { field: 'markup', before: 4, after: 5 },
            { field: 'x', after: 1 },
          ],
        }),
      ],
      'csv',
    );
    const [header, line] = csv.split('\r\n');
    expect(header).toBe(
      'time,actor,login,address,action,outcome,http_status,fields,kind,previous_address,plan_digest,change_set_digest,' +
        'reviewed_change_set,pull_request,ci_actor,triggering_actor,approved_by,plan,commit,dirty,ci_run,run_id,' +
        'emergency_change,message,journal',
    );
    expect(line).toContain(',markup: 4 → 5; x: (absent) → 1,');
    expect(csv.split('\r\n')).toHaveLength(3);
  });

  it('address globs: * any characters (a subtree too), ? one', () => {
    expect(globPattern('tenant/acme*').test('tenant/acme-corp/subscription/main')).toBe(true);
    expect(globPattern('tenant/acme').test('tenant/acme-corp')).toBe(false);
    expect(globPattern('tenant/?cme').test('tenant/acme')).toBe(true);
    expect(globPattern('routing/(x)+').test('routing/(x)+')).toBe(true);
  });
});
