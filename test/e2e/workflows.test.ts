/**
 * The example GitHub workflows (examples/.github/workflows/): their shell steps run for real
 * (the workflow text itself, not a copy) against a simulator, with a fake `gh` and the
 * checkout steps emulated by the test. The chain from a reviewed pull request to the audit
 * (whole runs of plan.yml and apply.yml): workflows-apply.test.ts. Their structure:
 * workflows-structure.test.ts; actionlint: workflows-lint.test.ts.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, adminApi, runCli, simEnv } from './cli-helpers.js';
import {
  fakeGitHub,
  loadWorkflow,
  makeWorkspace,
  readFakeGitHub,
  runStep,
  type ExpressionContext,
  type StepResult,
  type Workflow,
} from './workflows/harness.js';

const git = promisify(execFile);

// One simulator, in order (vitest runs a file's tests one after the other): the pull requests'
// plans on a platform without the examples, then drift on one where they were applied.
describe('examples/.github/workflows: the shell steps, run against a simulator (fake gh, checkouts emulated)', () => {
  let sim: RunningSimulator;
  let ghState: string;
  let plan: Workflow;
  let apply: Workflow;
  let drift: Workflow;
  const HEAD = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
  const MAIN = 'ffeeddccbbaa00998877665544332211ffeeddcc';
  let runnerTemp: string;

  const context = (): ExpressionContext => ({
    secrets: {
      SWITCHBOARD_URL: sim.url,
      SWITCHBOARD_RE_URL: sim.url,
      // plan.yml and drift.yml: the simulator's reader, whose api_rules allow GET only
      SWITCHBOARD_READONLY_USERNAME: 'reader',
      SWITCHBOARD_READONLY_PASSWORD: 'reader',
      SWITCHBOARD_RE_READONLY_USERNAME: 'routing',
      SWITCHBOARD_RE_READONLY_PASSWORD: 'routing',
      // apply.yml: the environment's secrets
      SWITCHBOARD_USERNAME: 'admin',
      SWITCHBOARD_PASSWORD: 'admin',
      SWITCHBOARD_RE_USERNAME: 'routing',
      SWITCHBOARD_RE_PASSWORD: 'routing',
    },
    github: {
      token: 'fake-token',
      event: { pull_request: { number: 7, head: { sha: HEAD }, base: { sha: baseSha } } },
      run_id: '555',
    },
    steps: {},
    runner: { temp: runnerTemp },
  });
  const runnerEnv = (extra: Record<string, string> = {}) => ({
    GITHUB_REPOSITORY: 'acme/platform',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '555',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_SHA: MAIN,
    GITHUB_REF_NAME: 'main',
    GITHUB_EVENT_NAME: 'push',
    RUNNER_TEMP: runnerTemp,
    FAKE_GH_STATE: ghState,
    ...extra,
  });
  const step = (
    workflow: Workflow,
    job: string,
    name: string,
    cwd: string,
    ctx: ExpressionContext,
    env?: Record<string, string>,
  ): Promise<StepResult> => runStep({ workflow, job, step: name, cwd, context: ctx, runnerEnv: runnerEnv(env) });

  /** A checkout of main: examples/ as manifests/. */
  async function checkout(): Promise<string> {
    const dir = await makeWorkspace();
    await cp(EXAMPLES, join(dir, 'manifests'), { recursive: true });
    return dir;
  }

  /** The base commit of the last pull request's checkout (the plan's `--changed-since`). */
  let baseSha = '';

  /**
   * The plan job after its two checkouts (the base branch at the root, a git checkout; the
   * pull request under pull-request/) and its "Take the manifests from the pull request"
   * step, run for real. The base branch holds examples/ when `base` says so; by default it
   * has no manifests yet, so that the pull request adds them all and its plan is the whole one.
   */
  async function pullRequest(
    edit?: (manifests: string) => Promise<void>,
    base: 'empty' | 'examples' = 'empty',
  ): Promise<string> {
    const dir = await checkout();
    if (base === 'empty') await rm(join(dir, 'manifests'), { recursive: true, force: true });
    const run = (args: string[]) =>
      git('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir });
    await run(['init', '-q', '-b', 'main']);
    await run(['add', '.']);
    await run(['commit', '-q', '--allow-empty', '-m', 'base']);
    baseSha = (await run(['rev-parse', 'HEAD'])).stdout.trim();
    const theirs = join(dir, 'pull-request/manifests');
    await cp(EXAMPLES, theirs, { recursive: true });
    if (edit) await edit(theirs);
    const taken = await step(plan, 'plan', 'Take the manifests from the pull request', dir, context());
    expect(taken.code, taken.stderr + taken.stdout).toBe(0);
    return dir;
  }

  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    runnerTemp = await mkdtemp(join(tmpdir(), 'switchboard-gha-runner-'));
    ghState = join(runnerTemp, 'gh.json');
    plan = await loadWorkflow('plan.yml');
    apply = await loadWorkflow('apply.yml');
    drift = await loadWorkflow('drift.yml');
  });
  afterAll(async () => {
    await sim.close();
  });

  it('plan.yml: validates, writes plan.md and plan.json, keeps ONE pull-request comment (created, then updated)', async () => {
    // A comment by someone else that starts with the marker is not the plan comment.
    const fake = { id: 2, issue: 7, body: '<!-- switchboard-plan -->\nnot mine', user: { login: 'mallory' } };
    await fakeGitHub(ghState, { comments: [{ id: 1, issue: 7, body: 'LGTM' }, fake] });
    const reviewed = await pullRequest();
    const ctx = context();
    const validated = await step(plan, 'plan', 'Validate the manifests', reviewed, ctx);
    expect(validated.code, validated.stderr).toBe(0);
    expect(validated.stdout).toMatch(/^OK: \d+ files/m);

    const planned = await step(plan, 'plan', 'plan', reviewed, ctx);
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.outputs['exitcode']).toBe('2');
    const md = await readFile(join(reviewed, 'plan.md'), 'utf8');
    expect(md).toMatch(/^### switchboard plan\n/);
    expect(md).toContain('tenant/hooli-be');
    expect(planned.summary).toBe(md);
    const json = JSON.parse(await readFile(join(reviewed, 'plan.json'), 'utf8')) as {
      formatVersion: number;
      digest: string;
      changeSet: { digest: string };
      summary: { create: number };
    };
    expect(json.formatVersion).toBe(2);
    expect(json.summary.create).toBeGreaterThan(0);
    const changeSet = json.changeSet.digest;
    expect(changeSet).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(md).toContain(`<sub>Plan digest: <code>${json.digest}</code><br>Change set: <code>${changeSet}</code>`);
    const html = await readFile(join(reviewed, 'plan.html'), 'utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain(`Plan digest: <code>${json.digest}</code>`);

    for (let i = 0; i < 2; i++) {
      const posted = await step(plan, 'plan', 'Post the plan on the pull request', reviewed, ctx);
      expect(posted.code, posted.stderr).toBe(0);
      expect(posted.stdout).toContain(i === 0 ? 'Created the plan comment.' : 'Updated comment 100.');
    }
    const gh = await readFakeGitHub(ghState);
    expect(gh.comments).toHaveLength(3);
    expect(gh.comments.slice(0, 2).map((c) => c.body)).toEqual(['LGTM', fake.body]);
    const comment = gh.comments[2]?.body ?? '';
    expect(gh.comments[2]?.user).toEqual({ login: 'github-actions[bot]' });
    expect(comment.startsWith('<!-- switchboard-plan -->\n### switchboard plan')).toBe(true);
    expect(comment).toContain(`artifact <code>switchboard-plan-${HEAD}</code>`);
    expect(comment).toContain(`Plan digest: <code>${json.digest}</code>`);
    // What apply.yml reads back after the merge: the commit planned and both digests.
    expect(comment).toContain(
      `<!-- switchboard-plan-digests head=${HEAD} plan=${json.digest} change-set=${changeSet} -->`,
    );
    expect(comment.length).toBeLessThan(65_536);
  }, 60_000);

  it('plan.yml: invalid manifests fail the job (exit 1) and the comment shows the errors', async () => {
    await fakeGitHub(ghState);
    const dir = await pullRequest((manifests) =>
      writeFile(
        join(manifests, 'broken.yaml'),
        'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: broken, reseller: north }\nspec: { billingID: X }\n',
      ),
    );
    const ctx = context();
    const validated = await step(plan, 'plan', 'Validate the manifests', dir, ctx);
    expect(validated.code).toBe(1);
    const posted = await step(plan, 'plan', 'Post the plan on the pull request', dir, ctx);
    expect(posted.code, posted.stderr).toBe(0);
    const body = (await readFakeGitHub(ghState)).comments[0]?.body ?? '';
    expect(body).toContain('**No plan: the manifests are invalid or switchboard could not plan.**');
    expect(body).not.toContain('switchboard-plan-digests');
    expect(body).toMatch(/broken\.yaml:4:\d+: error SB_UNKNOWN_FIELD/);
  }, 60_000);

  it('plan.yml: the plan covers the documents the pull request changes (--changed-since the base commit)', async () => {
    await fakeGitHub(ghState);
    const dir = await pullRequest(async (manifests) => {
      const file = join(manifests, 'tenants/globex.yaml');
      await writeFile(file, (await readFile(file, 'utf8')).replace(/markup: [\d.]+/, 'markup: 7'));
    }, 'examples');
    const planned = await step(plan, 'plan', 'plan', dir, context());
    expect(planned.code, planned.stderr).toBe(0);
    const md = await readFile(join(dir, 'plan.md'), 'utf8');
    expect(md).toMatch(new RegExp(`scoped to 1 of \\d+ documents changed since ${baseSha}`));
    expect(md).toContain('tenant/globex');
    expect(md).not.toContain('tenant/hooli-be');
    const json = JSON.parse(await readFile(join(dir, 'plan.json'), 'utf8')) as { scope: { addresses: string[] } };
    expect(json.scope.addresses).toEqual(['tenant/globex']);
  }, 60_000);

  it("plan.yml: a symbolic link among the pull request's manifests is refused before switchboard runs", async () => {
    const dir = await checkout();
    await cp(EXAMPLES, join(dir, 'pull-request/manifests'), { recursive: true });
    await symlink('/etc/hostname', join(dir, 'pull-request/manifests/tenants/hosts.csv'));
    const taken = await step(plan, 'plan', 'Take the manifests from the pull request', dir, context());
    expect(taken.code).toBe(1);
    expect(taken.stdout).toContain(
      "::error::The pull request's manifests hold a symbolic link (manifests/tenants/hosts.csv): refused.",
    );
  });

  it('every step that runs switchboard fails when switchboard fails (no pipe, subshell or `set +e` hides it)', async () => {
    const bin = await mkdtemp(join(tmpdir(), 'switchboard-gha-failing-'));
    await writeFile(join(bin, 'npx'), '#!/bin/sh\necho "npx $*: simulated failure" >&2\nexit 1\n', { mode: 0o755 });
    const checked: string[] = [];
    // The apply workflow's plan job, as it is once it found a review: the compare step calls switchboard too.
    const reviewFound = { review: { outputs: { pr: '7', reviewed: `sha256:${'1'.repeat(64)}` } } };
    for (const workflow of [plan, apply, drift]) {
      for (const [job, { steps }] of Object.entries(workflow.jobs)) {
        for (const s of steps.filter((x) => x.run?.includes('npx --no-install switchboard'))) {
          const dir = await checkout();
          // What the steps read: the plan job's plan, and the artifact the apply job applies.
          const plan = JSON.stringify({
            digest: `sha256:${'0'.repeat(64)}`,
            changeSet: { digest: `sha256:${'2'.repeat(64)}` },
          });
          await writeFile(join(dir, 'plan.json'), plan);
          await mkdir(join(dir, 'approved-plan'));
          await writeFile(join(dir, 'approved-plan/plan.json'), plan);
          const result = await runStep({
            workflow,
            job,
            step: s.name ?? s.id ?? '',
            cwd: dir,
            context: { ...context(), steps: reviewFound },
            runnerEnv: runnerEnv(),
            binFirst: bin,
          });
          expect(result.code, `${workflow.name}: ${s.name}`).not.toBe(0);
          expect(result.stderr, `${workflow.name}: ${s.name}`).toContain('simulated failure');
          checked.push(`${workflow.name}: ${s.name}`);
        }
      }
    }
    expect(checked).toEqual([
      'switchboard plan: Validate the manifests',
      'switchboard plan: Plan',
      'switchboard apply: Plan',
      'switchboard apply: Compare with the reviewed plan and write the summary',
      'switchboard apply: Apply',
      'switchboard drift: Plan',
    ]);
    // The same Validate step under GitHub's default shell (no `shell: bash`): bash -e, no pipefail, exit 0.
    const { defaults: _bash, ...withoutShell } = plan;
    const dir = await checkout();
    const hidden = await runStep({
      workflow: withoutShell,
      job: 'plan',
      step: 'validate',
      cwd: dir,
      context: context(),
      runnerEnv: runnerEnv(),
      binFirst: bin,
    });
    expect(hidden.stderr).toContain('simulated failure');
    expect(hidden.code).toBe(0);
  }, 60_000);

  it('drift.yml: in sync exits 0; an out-of-band change through the API makes the plan step exit 2 and opens ONE issue; undoing it closes the issue', async () => {
    await fakeGitHub(ghState);
    const dir = await checkout();
    // main, applied: the platform holds the manifests, the checkout the last-applied record.
    const applied = await runCli(['apply', 'manifests', '--yes'], { env: simEnv(sim.url), cwd: dir });
    expect(applied.code, applied.stderr).toBe(0);
    const ctx = context();
    const inSync = await step(drift, 'drift', 'plan', dir, ctx);
    expect(inSync.code, inSync.stderr + inSync.stdout).toBe(0);

    const api = await adminApi(sim.url);
    const acme = await tenantUuid('acme-corp');
    expect((await api('PUT', `/api/v01/draas/demo/tenants/${acme}`, { markup: 9 })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const drifted = await step(drift, 'drift', 'plan', dir, ctx);
      expect(drifted.code).toBe(2);
      expect(drifted.outputs['exitcode']).toBe('2');
      const reported = await step(drift, 'drift', 'Open, update or close the drift issue', dir, ctx);
      expect(reported.code, reported.stderr).toBe(0);
    }
    let gh = await readFakeGitHub(ghState);
    expect(gh.issues).toHaveLength(1);
    expect(gh.issues[0]).toMatchObject({ state: 'open', labels: [{ name: 'switchboard-drift' }] });
    expect(gh.issues[0]?.body).toMatch(/^<!-- switchboard-drift -->\n/);
    expect(gh.issues[0]?.body).toContain('tenant/acme-corp');

    expect((await api('PUT', `/api/v01/draas/demo/tenants/${acme}`, { markup: 5 })).status).toBe(200);
    expect((await step(drift, 'drift', 'plan', dir, ctx)).code).toBe(0);
    const closed = await step(drift, 'drift', 'Open, update or close the drift issue', dir, ctx);
    expect(closed.stdout).toContain('Closed drift issue #100.');
    gh = await readFakeGitHub(ghState);
    expect(gh.issues[0]?.state).toBe('closed');
  }, 90_000);

  async function tenantUuid(name: string): Promise<string> {
    const state = (await (await fetch(`${sim.url}/_sim/state`)).json()) as {
      tables: { tenants: { name: string; uuid: string }[] };
    };
    const uuid = state.tables.tenants.find((t) => t.name === name)?.uuid;
    if (!uuid) throw new Error(`no tenant ${name}`);
    return uuid;
  }
});

describe('docs/gitops.md "Rehearsing a pull request on a simulator": a pull request on a simulator loaded from an export of production', () => {
  let prod: RunningSimulator;
  let rehearsal: RunningSimulator;
  beforeAll(async () => {
    [prod, rehearsal] = await Promise.all([startSimulator({ port: 0 }), startSimulator({ port: 0 })]);
  });
  afterAll(async () => {
    await Promise.all([prod.close(), rehearsal.close()]);
  });

  it('docs/commands.md export/--seed/--state: the copy plans the export as "No changes."; the PR plans its change there too, plus only what export cannot read', async () => {
    const prodDir = await mkdtemp(join(tmpdir(), 'switchboard-prod-'));
    expect((await runCli(['apply', EXAMPLES, '--yes'], { env: simEnv(prod.url), cwd: prodDir })).code).toBe(0);
    const exported = join(prodDir, 'export');
    expect((await runCli(['export', '--out', exported], { env: simEnv(prod.url), cwd: prodDir })).code).toBe(0);

    const rehearsalDir = await mkdtemp(join(tmpdir(), 'switchboard-rehearsal-'));
    const onCopy = { env: simEnv(rehearsal.url), cwd: rehearsalDir };
    const loaded = await runCli(['apply', exported, '--yes'], onCopy);
    expect(loaded.code, loaded.stdout + loaded.stderr).toBe(0);
    expect((await runCli(['plan', exported, '--detailed-exitcode'], onCopy)).code).toBe(0);

    // The pull request: acme-corp's markup 5 → 6.
    const pr = join(prodDir, 'pr');
    await cp(EXAMPLES, pr, { recursive: true });
    const file = join(pr, 'tenants/acme-corp.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^ {2}markup: 5$/m, '  markup: 6'));
    const inProd = await planJson(pr, { env: simEnv(prod.url), cwd: prodDir });
    expect(inProd.changes.map((c) => `${c.action} ${c.address}`)).toEqual(['update tenant/acme-corp']);
    const inCopy = await planJson(pr, onCopy);
    expect(inCopy.changes).toContainEqual(
      expect.objectContaining({
        action: 'update',
        address: 'tenant/acme-corp',
        patch: [{ op: 'replace', path: '/markup', value: 6 }],
      }),
    );
    // Everything else is what export cannot read (docs/export.md): administrators, write-only values, trunk
    // groups' lists, routing tables.
    const writeOnly: Record<string, string[]> = { Entitlement: ['externalReference'], Reseller: ['suspensionProfile'] };
    for (const c of inCopy.changes.filter((x) => x.address !== 'tenant/acme-corp')) {
      const what = `${c.action} ${c.address}`;
      if (c.kind in writeOnly)
        expect(
          Object.keys(c.after ?? {}).every((f) => writeOnly[c.kind]?.includes(f)),
          what,
        ).toBe(true);
      else if (c.kind === 'Administrator' || c.kind === 'RoutingRow') expect(c.action, what).toBe('create');
      else expect(c.address, what).toMatch(/\/trunkgroup\/\d+\/(block|allow)_list\//);
    }
    expect(inCopy.changes.filter((c) => c.kind === 'RoutingRow').length).toBeGreaterThan(1000);
    const applied = await runCli(['apply', pr, '--yes'], onCopy);
    expect(applied.code, applied.stdout).toBe(0);
    expect((await runCli(['plan', pr, '--detailed-exitcode'], onCopy)).code).toBe(0);

    // A simulated production copied whole (GET /_sim/state → sim --state): the PR plans exactly as in production.
    const state = join(prodDir, 'copy.json');
    await writeFile(state, await (await fetch(`${prod.url}/_sim/state`)).text());
    const copy = await startSimulator({ port: 0, stateFile: state });
    try {
      const exact = await planJson(pr, { env: simEnv(copy.url), cwd: prodDir });
      expect(exact.changes.map((c) => `${c.action} ${c.address}`)).toEqual(['update tenant/acme-corp']);
    } finally {
      await copy.close();
    }
  }, 120_000);
});

interface PlanJson {
  changes: {
    action: string;
    address: string;
    kind: string;
    after?: Record<string, unknown> | null;
    patch?: unknown[];
  }[];
}
async function planJson(path: string, options: { env: Record<string, string>; cwd: string }): Promise<PlanJson> {
  const result = await runCli(['plan', path, '--format', 'json'], options);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as PlanJson;
}
