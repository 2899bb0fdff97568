/**
 * The audit trail end to end: a reviewed plan applied from a git repository of manifests in
 * a (simulated) CI run, then `audit` lists every applied change with the actor, the
 * plan's digest, the commit and the CI run; `apply --format json` says the same for scripts.
 */
import { execFile } from 'node:child_process';
import { appendFile, cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApplySummaryJson } from '../../src/apply/summary.js';
import type { Plan } from '../../src/plan/types.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, runCli, simEnv } from './cli-helpers.js';

const git = promisify(execFile);

/** RFC 4180 CSV (quoted fields, doubled quotes, CRLF) as rows of named fields. */
function parseCsv(text: string): Record<string, string>[] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  const endField = () => {
    record.push(field);
    field = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') endField();
    else if (c === '\n') {
      endField();
      records.push(record);
      record = [];
    } else if (c !== '\r') field += c;
  }
  const [header = [], ...rows] = records;
  return rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
}

const CI_ENV = {
  CI: 'true',
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'acme/platform',
  GITHUB_RUN_ID: '4242',
  GITHUB_RUN_ATTEMPT: '2',
  GITHUB_ACTOR: 'octo-reviewer',
  GITHUB_TOKEN: 'ghs_must-never-be-recorded-0001',
};

let sim: RunningSimulator;
let repo: string;
let commit: string;
let plan: Plan;
const journal = (name: string) => join(repo, name);

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  repo = await mkdtemp(join(tmpdir(), 'switchboard-audit-'));
  await cp(EXAMPLES, join(repo, 'manifests'), { recursive: true });
  await writeFile(join(repo, '.gitignore'), '.switchboard/\n*.jsonl\nplan.json\n');
  const g = (...args: string[]) => git('git', ['-C', repo, ...args]);
  await g('init', '-q');
  await g('add', '-A');
  await g('-c', 'user.name=ops', '-c', 'user.email=ops@example.net', 'commit', '-qm', 'manifests');
  commit = (await g('rev-parse', 'HEAD')).stdout.trim();
});

afterAll(async () => {
  await sim.close();
});

describe('apply --plan, then audit (end to end, a git repository of manifests, a CI run)', () => {
  it('apply --format json prints the summary as one JSON document, the plan on stderr', async () => {
    const planned = await runCli(['plan', 'manifests', '--out', 'plan.json'], { env: simEnv(sim.url), cwd: repo });
    expect(planned.code).toBe(0);
    plan = JSON.parse(await readFile(join(repo, 'plan.json'), 'utf8')) as Plan;
    const applied = await runCli(
      ['apply', 'manifests', '--plan', 'plan.json', '--yes', '--journal', 'first.jsonl', '--format', 'json'],
      { env: { ...simEnv(sim.url), ...CI_ENV }, cwd: repo },
    );
    expect(applied.code).toBe(0);
    expect(applied.stderr).toContain(`Plan digest: ${plan.digest}`);
    const summary = JSON.parse(applied.stdout) as ApplySummaryJson;
    expect(summary).toMatchObject({
      outcome: 'complete',
      applied: plan.changes.length,
      failed: 0,
      skipped: 0,
      failures: [],
      journal: 'first.jsonl',
      plan: { digest: plan.digest, source: 'file', file: 'plan.json' },
    });
    expect(summary.requests).toBeGreaterThan(0);
    expect(summary.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('the journal records who applied which plan, from which commit, in which CI run (never a token)', async () => {
    const text = await readFile(journal('first.jsonl'), 'utf8');
    const start = JSON.parse(text.split('\n')[0] ?? '{}');
    expect(start).toMatchObject({
      type: 'run',
      event: 'start',
      actor: { username: 'admin', login: 'password' },
      routingActor: { username: 'routing', login: 'password' },
      plan: { digest: plan.digest, changeSetDigest: plan.changeSet?.digest, source: 'file', file: 'plan.json' },
      manifests: { digest: plan.manifests.digest, files: plan.manifests.files.length },
      tool: { name: 'switchboard' },
      git: { commit, dirty: false },
      ci: {
        system: 'github-actions',
        url: 'https://github.com/acme/platform/actions/runs/4242/attempts/2',
        vars: { GITHUB_ACTOR: 'octo-reviewer', GITHUB_RUN_ID: '4242' },
      },
    });
    expect(text).not.toContain(CI_ENV.GITHUB_TOKEN);
    // Which members the platform vouched for, and which anyone starting the process could set.
    expect(start.sources).toEqual({
      actor: 'authenticated',
      routingActor: 'authenticated',
      plan: 'computed',
      manifests: 'computed',
      tool: 'computed',
      git: 'computed',
      ci: 'environment',
    });
    // Each change line says what it set, as the plan shows it.
    const changes = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l['type'] === 'change');
    expect(changes).toHaveLength(plan.changes.length);
    const acme = changes.find((l) => l['address'] === 'tenant/acme-corp');
    expect(acme).toMatchObject({ kind: 'Tenant', fields: [{ field: 'markup', before: 4, after: 5 }] });
  });

  it('audit --format csv lists every applied change with the actor admin, the plan digest and the commit', async () => {
    const audited = await runCli(['audit', 'first.jsonl', '--format', 'csv'], { cwd: repo });
    expect(audited.code).toBe(0);
    expect(audited.stderr).toBe('');
    const rows = parseCsv(audited.stdout);
    expect(rows).toHaveLength(plan.changes.length);
    expect(new Set(rows.map((r) => r['address']))).toEqual(new Set(plan.changes.map((c) => c.address)));
    for (const row of rows) {
      expect(row).toMatchObject({
        actor: 'admin',
        login: 'password',
        outcome: 'applied',
        plan_digest: plan.digest,
        plan: 'file plan.json',
        commit,
        dirty: 'no',
        ci_run: 'https://github.com/acme/platform/actions/runs/4242/attempts/2',
      });
    }
    const byAddress = new Map(rows.map((r) => [r['address'], r]));
    for (const change of plan.changes) {
      const row = byAddress.get(change.address);
      expect(row?.['action']).toBe(change.action);
      // A platform object sent on its own carries its request's status (bulk members and routing rows go in groups).
      if (row?.['http_status']) expect(row['http_status']).toMatch(/^2\d\d$/);
    }
    expect(byAddress.get('tenant/acme-corp')?.['http_status']).toMatch(/^2\d\d$/);
    expect(rows.filter((r) => r['http_status']).length).toBeGreaterThan(20);
  });

  it('merges journals oldest first, reports torn and foreign lines with file:line, and filters', async () => {
    // A second, unreviewed apply of an uncommitted edit.
    const tenant = join(repo, 'manifests', 'tenants', 'acme-corp.yaml');
    const original = await readFile(tenant, 'utf8');
    expect(original).toContain('markup:');
    await writeFile(tenant, original.replace(/markup: *\d+/, 'markup: 9'));
    const second = await runCli(['apply', 'manifests', '--yes', '--journal', 'second.jsonl'], {
      env: simEnv(sim.url),
      cwd: repo,
    });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/Plan digest: sha256:[0-9a-f]{64} \(planned in this run\)/);
    await appendFile(journal('second.jsonl'), '{"at":"2026-11-22T10:00:00Z","type":"change","addr');
    await writeFile(journal('foreign.jsonl'), '{"level":30,"msg":"a pino line"}\n\n["not", "a", "line"]\n');

    const audited = await runCli(['audit', 'second.jsonl', 'first.jsonl', 'foreign.jsonl', '--format', 'json'], {
      cwd: repo,
    });
    expect(audited.code).toBe(0);
    const lines = (await readFile(journal('second.jsonl'), 'utf8')).split('\n').length;
    expect(audited.stderr).toContain(`second.jsonl:${lines}: skipped: torn line (not JSON)`);
    expect(audited.stderr).toContain('foreign.jsonl:1: skipped: not a switchboard journal line (no time)');
    expect(audited.stderr).toContain('foreign.jsonl:3: skipped: not a switchboard journal line (not an object)');
    const rows = JSON.parse(audited.stdout) as Record<string, unknown>[];
    expect(rows.length).toBeGreaterThan(plan.changes.length);
    const times = rows.map((r) => String(r['time']));
    expect([...times].sort()).toEqual(times);
    const last = rows.at(-1);
    expect(last).toMatchObject({ actor: 'admin', plan: 'planned in this run', commit, dirty: true, ciRun: '' });

    const acme = await runCli(['audit', 'first.jsonl', 'second.jsonl', '--address', 'tenant/acme-corp'], { cwd: repo });
    const acmeRows = parseCsv(acme.stdout);
    expect(acmeRows.map((r) => r['plan'])).toEqual(['file plan.json', 'planned in this run']);
    const subtree = parseCsv(
      (await runCli(['audit', 'first.jsonl', '--address', 'tenant/acme-corp*'], { cwd: repo })).stdout,
    );
    expect(subtree.length).toBeGreaterThan(1);
    expect(subtree.every((r) => r['address']?.startsWith('tenant/acme-corp'))).toBe(true);
    const future = await runCli(['audit', 'first.jsonl', '--since', '2999-01-01', '--format', 'markdown'], {
      cwd: repo,
    });
    expect(future.stdout).toBe('No changes in these journals.\n');
    const bad = await runCli(['audit', 'first.jsonl', '--since', 'yesterday'], { cwd: repo });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('expected an ISO 8601 date');
    const missing = await runCli(['audit', 'nowhere.jsonl'], { cwd: repo });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read the journal nowhere.jsonl');
    await writeFile(tenant, original);
  });

  it('a manifest naming a value the run record holds (${GITHUB_SHA}, ${GITHUB_ACTOR}) cannot erase it', async () => {
    const tenant = join(repo, 'manifests', 'tenants', 'acme-corp.yaml');
    const original = await readFile(tenant, 'utf8');
    const admin = '{ email: it@acme.example, firstName: Ada, lastName: Lovelace }';
    expect(original).toContain(admin);
    await writeFile(
      tenant,
      original.replace(admin, '{ email: it@acme.example, firstName: "${GITHUB_ACTOR}", lastName: "${GITHUB_SHA}" }'),
    );
    try {
      const env = { ...simEnv(sim.url), ...CI_ENV, GITHUB_SHA: commit };
      const applied = await runCli(['apply', 'manifests', '--yes', '--journal', 'named.jsonl'], { env, cwd: repo });
      expect(applied.code, applied.stderr).toBe(0);
      const text = await readFile(journal('named.jsonl'), 'utf8');
      const start = JSON.parse(text.split('\n')[0] ?? '{}');
      expect(start).toMatchObject({
        git: { commit },
        ci: { vars: { GITHUB_SHA: commit, GITHUB_ACTOR: 'octo-reviewer' } },
      });
      // Elsewhere the manifest's values stay masked: the change line's fields show the plan's marker.
      expect(text.split('\n').slice(1).join('\n')).not.toContain(commit);
      const rows = parseCsv((await runCli(['audit', 'named.jsonl', '--format', 'csv'], { cwd: repo })).stdout);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row).toMatchObject({ commit, ci_actor: 'octo-reviewer' });
      // The plan document on stdout is the file --out writes, byte for byte: its digest holds.
      const planned = await runCli(['plan', 'manifests', '--format', 'json', '--out', 'named-plan.json'], {
        env,
        cwd: repo,
      });
      expect(planned.code, planned.stderr).toBe(0);
      expect(planned.stdout).toBe(await readFile(join(repo, 'named-plan.json'), 'utf8'));
      expect(planned.stdout).toContain(commit);
    } finally {
      await writeFile(tenant, original);
    }
  });

  it("audit lists a killed run's sent change as unknown and says on stderr that the run did not finish", async () => {
    const at = '2026-11-22T10:00:00.000Z';
    const lines = [
      { type: 'run', event: 'start', runId: 'killed-run', ci: { system: 'github-actions' } },
      { type: 'intent', seq: 1, address: 'tenant/globex', method: 'PUT', path: '/api/t/9', purpose: 'update' },
      { type: 'outcome', seq: 1, address: 'tenant/globex', ok: true, status: 200, ms: 4 },
    ];
    await writeFile(journal('killed.jsonl'), lines.map((l) => `${JSON.stringify({ at, ...l })}\n`).join(''));
    const audited = await runCli(['audit', 'killed.jsonl', '--format', 'csv'], { cwd: repo });
    expect(audited.code, audited.stderr).toBe(0);
    expect(parseCsv(audited.stdout)).toEqual([
      expect.objectContaining({
        address: 'tenant/globex',
        outcome: 'unknown',
        http_status: '200',
        ci_run: 'github-actions',
      }),
    ]);
    expect(audited.stderr).toContain('killed.jsonl:1: note: run killed-run has no end line: it did not finish');
  });

  it('audit --format markdown is a table whose cells cannot inject markup', async () => {
    const audited = await runCli(['audit', 'first.jsonl', '--format', 'markdown', '--address', 'reseller/*'], {
      cwd: repo,
    });
    const lines = audited.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^\| time \| address \| action \| outcome \| fields \| actor \| ci_actor \|/);
    expect(lines.length).toBeGreaterThan(2);
    // The only markup in a cell is the line break between two fields.
    expect(lines.slice(2).every((l) => l.startsWith('| ') && !l.replace(/<br>/g, '').includes('<'))).toBe(true);
    expect(audited.stdout).toMatch(
      /^\| [^|]+ \| reseller\/south \| update \| applied \| markup: null → 2\.5 \| admin \(password\) \| octo-reviewer \|/m,
    );
  });
});
