/**
 * The example GitHub workflows (examples/.github/workflows/): their structure as GitHub Actions reads it,
 * and their shell steps run for real (the workflow text itself, not a copy) against a
 * simulator, with a fake `gh` and the artifact steps emulated by the test.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, adminApi, runCli, simEnv } from './cli-helpers.js';
import {
  REPO_ROOT,
  WORKFLOWS,
  fakeGitHub,
  findStep,
  loadWorkflow,
  makeWorkspace,
  readFakeGitHub,
  runStep,
  type ExpressionContext,
  type StepResult,
  type Workflow,
} from './workflows/harness.js';

const FILES = ['plan.yml', 'apply.yml', 'drift.yml'] as const;
/** Not credentials: where the platform and the routing engine are. */
const LOCATION_SECRETS = ['SWITCHBOARD_URL', 'SWITCHBOARD_INSTANCE', 'SWITCHBOARD_RE_URL'];
/** The credentials of a read-only platform user (plan.yml, drift.yml): repository secrets. */
const READONLY_SECRETS = /^SWITCHBOARD_(RE_)?READONLY_(TOKEN|USERNAME|PASSWORD|TOTP_SECRET)$/;
/** The credentials that change the platform (apply.yml only): secrets of its environment. */
const APPLY_SECRETS = /^SWITCHBOARD_(TOKEN|USERNAME|PASSWORD|TOTP_SECRET|RE_TOKEN|RE_USERNAME|RE_PASSWORD)$/;
/**
 * The commit each action is pinned to, read from the tag in the action's own repository.
 * A workflow naming another commit, or a tag comment that does not match, fails the test.
 */
const PINNED: Record<string, { sha: string; tag: string }> = {
  'actions/checkout': { sha: '3d3c42e5aac5ba805825da76410c181273ba90b1', tag: 'v7.0.1' },
  'actions/setup-node': { sha: '820762786026740c76f36085b0efc47a31fe5020', tag: 'v7.0.0' },
  'actions/upload-artifact': { sha: 'bbbca2ddaa5d8feaa63e36b76fdaad77386f024f', tag: 'v7.0.0' },
  'actions/download-artifact': { sha: '37930b1c2abaa49bbe596cd826c3c89aef350131', tag: 'v7.0.0' },
};
const git = promisify(execFile);

/** Every `uses:` line of a workflow file as written (comments included): `action@ref # comment`. */
async function usesLines(path: string): Promise<string[]> {
  return [...(await readFile(path, 'utf8')).matchAll(/^\s*(?:- )?uses: (.*)$/gm)].map((m) => m[1] ?? '');
}

describe('examples/.github/workflows: valid GitHub Actions workflows, safe to copy', () => {
  const workflows = new Map<string, Workflow>();
  beforeAll(async () => {
    for (const file of FILES) workflows.set(file, await loadWorkflow(file));
  });
  const each = (fn: (w: Workflow, file: string) => void) => () => FILES.forEach((f) => fn(workflows.get(f) as Workflow, f));
  const secretsOf = (w: Workflow): string[] => [...JSON.stringify(w).matchAll(/secrets\.([A-Za-z_]+)/g)].map((m) => m[1] ?? '');

  it('have a name, triggers, least-privilege permissions and jobs whose steps each use or run', each((w, file) => {
    expect(w.name, file).toMatch(/^switchboard /);
    expect(Object.keys(w.on).length, file).toBeGreaterThan(0);
    expect(w.permissions, file).toBeDefined();
    expect(Object.values(w.permissions ?? {}).every((p) => p === 'read' || p === 'write'), file).toBe(true);
    for (const [name, job] of Object.entries(w.jobs)) {
      expect(job['runs-on'], `${file} ${name}`).toBe('ubuntu-latest');
      expect(job['timeout-minutes'], `${file} ${name}`).toBeGreaterThan(0);
      const ids = new Set<string>();
      for (const step of job.steps) {
        expect(Number(step.uses !== undefined) + Number(step.run !== undefined), `${file}: ${step.name ?? step.uses}`).toBe(1);
        // every steps.<id> reference names an earlier step
        for (const [, ref] of JSON.stringify(step).matchAll(/steps\.([\w-]+)\./g)) expect(ids.has(ref ?? ''), `${file}: steps.${ref}`).toBe(true);
        if (step.id) ids.add(step.id);
      }
    }
  }));

  it('run every block with shell: bash, so that pipefail applies (GitHub\'s default, bash -e, ignores a failing `validate | tee`)', each((w, file) => {
    expect(w.defaults?.run?.shell, file).toBe('bash');
    for (const job of Object.values(w.jobs)) for (const step of job.steps) expect(step.shell ?? 'bash', `${file}: ${step.name}`).toBe('bash');
  }));

  it('pin every action to a full commit SHA, with its tag in a comment', async () => {
    for (const file of [...FILES.map((f) => join(WORKFLOWS, f)), join(REPO_ROOT, '.github/workflows/ci.yml')]) {
      const lines = await usesLines(file);
      expect(lines.length, file).toBeGreaterThan(0);
      for (const line of lines) {
        const match = /^([\w.-]+\/[\w.-]+)@([0-9a-f]{40}) # (v\d+\.\d+\.\d+)$/.exec(line);
        expect(match, `${file}: uses: ${line}`).not.toBeNull();
        const [, action = '', sha, tag] = match ?? [];
        expect({ sha, tag }, `${file}: ${action}`).toEqual(PINNED[action]);
      }
    }
  });

  it('plan.yml and apply.yml watch the same paths', () => {
    const paths = (file: string, event: string) => ((workflows.get(file) as Workflow).on[event] as { paths: string[] }).paths;
    expect(paths('plan.yml', 'pull_request')).toEqual(paths('apply.yml', 'push'));
    expect(paths('plan.yml', 'pull_request')).toEqual(expect.arrayContaining(['manifests/**', 'switchboard.config.yaml', 'package-lock.json']));
  });

  it('take credentials only from ${{ secrets.* }}, only in the env of the steps that talk to the platform', each((w, file) => {
    expect(JSON.stringify(w.env ?? {}), file).not.toMatch(/secrets\./);
    for (const job of Object.values(w.jobs)) {
      expect(JSON.stringify(job.env ?? {}), file).not.toMatch(/secrets\./);
      for (const step of job.steps) {
        // no expression inside a script (no injection, and the scripts run as written outside GitHub)
        expect(step.run ?? '', `${file}: ${step.name}`).not.toContain('${{');
        expect(JSON.stringify(step.with ?? {}), `${file}: ${step.name}`).not.toMatch(/secrets\./);
        for (const [key, value] of Object.entries(step.env ?? {})) {
          if (!/^SWITCHBOARD_/.test(key)) expect(String(value), `${file}: ${step.name} ${key}`).not.toMatch(/secrets\./);
        }
        expect(step.run ?? '', file).not.toMatch(/SWITCHBOARD_(PASSWORD|TOKEN|TOTP_SECRET)=/);
      }
    }
  }));

  it('plan.yml and drift.yml hold read-only credentials only; the apply credentials appear in apply.yml alone', () => {
    for (const file of ['plan.yml', 'drift.yml']) {
      const names = secretsOf(workflows.get(file) as Workflow);
      expect(names.filter((n) => READONLY_SECRETS.test(n)).length, file).toBeGreaterThan(0);
      for (const name of names) expect(LOCATION_SECRETS.includes(name) || READONLY_SECRETS.test(name), `${file}: ${name}`).toBe(true);
    }
    const names = secretsOf(workflows.get('apply.yml') as Workflow);
    for (const name of names) expect(LOCATION_SECRETS.includes(name) || APPLY_SECRETS.test(name), `apply.yml: ${name}`).toBe(true);
    // Each variable switchboard reads gets the secret of its own name in apply.yml, the read-only one elsewhere.
    for (const file of FILES) {
      for (const step of Object.values((workflows.get(file) as Workflow).jobs).flatMap((j) => j.steps)) {
        for (const [key, value] of Object.entries(step.env ?? {})) {
          if (!/^SWITCHBOARD_/.test(key)) continue;
          const secret = LOCATION_SECRETS.includes(key) || file === 'apply.yml' ? key : key.replace(/^SWITCHBOARD_(RE_)?/, 'SWITCHBOARD_$1READONLY_');
          expect(value, `${file}: ${step.name} ${key}`).toBe(`\${{ secrets.${secret} }}`);
        }
      }
    }
  });

  it('apply.yml: the apply job is held by the "production" environment and runs for the default branch only', () => {
    const job = (workflows.get('apply.yml') as Workflow).jobs['apply'];
    expect(job?.environment).toBe('production');
    expect(job?.if).toBe("github.ref == format('refs/heads/{0}', github.event.repository.default_branch)");
    expect(Object.keys((workflows.get('apply.yml') as Workflow).on).sort()).toEqual(['push', 'workflow_dispatch']);
  });

  it('plan.yml: installs switchboard from the base branch, takes only the manifests from the pull request, before any secret', () => {
    const steps = (workflows.get('plan.yml') as Workflow).jobs['plan']?.steps ?? [];
    const [base, pr] = steps;
    expect(base?.uses).toMatch(/^actions\/checkout@/);
    expect(base?.with).toEqual({ ref: '${{ github.event.pull_request.base.sha }}', 'persist-credentials': false });
    expect(pr?.uses).toMatch(/^actions\/checkout@/);
    expect(pr?.with).toEqual({ path: 'pull-request', 'persist-credentials': false });
    const install = steps.findIndex((s) => s.name === 'Install switchboard from the base branch\'s lockfile');
    expect(steps[install]?.run).toBe('npm ci --ignore-scripts --no-audit --no-fund');
    const take = steps.findIndex((s) => s.name === 'Take the manifests from the pull request');
    expect(install).toBeGreaterThan(1);
    expect(take).toBeGreaterThan(install);
    // Nothing else reads the pull request's checkout, and no step before the take holds a secret.
    steps.forEach((step, i) => {
      if (i > 1 && i !== take) expect(JSON.stringify(step), step.name).not.toContain('pull-request');
      if (i <= take) expect(JSON.stringify(step), step.name).not.toMatch(/secrets\./);
    });
  });

  it('plan.yml: on pull_request, writes the PR comment only, uploads the plan named by the head commit', () => {
    const w = workflows.get('plan.yml') as Workflow;
    expect(Object.keys(w.on)).toEqual(['pull_request']);
    expect(w.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    const plan = findStep(w, 'plan', 'plan');
    expect(plan.run).toMatch(/switchboard plan "\$MANIFESTS" .*--no-check-permissions --detailed-exitcode --out plan\.json --format markdown > plan\.md/);
    const upload = findStep(w, 'plan', 'Upload the plan');
    expect(upload.uses).toMatch(/^actions\/upload-artifact@/);
    expect(upload.with?.['name']).toBe('switchboard-plan-${{ github.event.pull_request.head.sha }}');
    expect(upload.with?.['path']).toContain('plan.json');
  });

  it('apply.yml: on push to main, one apply at a time (concurrency, never cancelled), contents: write for the record', () => {
    const w = workflows.get('apply.yml') as Workflow;
    expect(w.on).toMatchObject({ push: { branches: ['main'] } });
    expect(w.concurrency).toEqual({ group: 'switchboard-apply', 'cancel-in-progress': false });
    expect(w.permissions).toMatchObject({ contents: 'write', actions: 'read' });
    const download = findStep(w, 'apply', 'Download the reviewed plan');
    expect(download.uses).toMatch(/^actions\/download-artifact@/);
    expect(download.with).toMatchObject({ 'run-id': '${{ steps.find.outputs.run_id }}', path: 'reviewed-plan' });
    const upload = findStep(w, 'apply', 'Upload the journal and the last-applied record');
    expect(upload.if).toBe('always()');
    // upload-artifact leaves out files under a dot folder (.switchboard/) unless told otherwise
    expect(upload.with?.['include-hidden-files']).toBe(true);
  });

  it('drift.yml: on a schedule (valid cron), issues: write', () => {
    const w = workflows.get('drift.yml') as Workflow;
    const schedule = (w.on['schedule'] as { cron: string }[])[0];
    expect(schedule?.cron.split(' ')).toHaveLength(5);
    expect(w.permissions).toEqual({ contents: 'read', issues: 'write' });
  });
});

// One scenario on one simulator, in order (vitest runs a file's tests one after the other):
// the PR is planned, merged and applied, and the record apply.yml commits is in every later checkout.
describe('examples/.github/workflows: the shell steps, run against a simulator (fake gh, artifacts emulated)', () => {
  let sim: RunningSimulator;
  let ghState: string;
  let plan: Workflow;
  let apply: Workflow;
  let drift: Workflow;
  const HEAD = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
  const MERGE = 'ffeeddccbbaa00998877665544332211ffeeddcc';
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
    github: { token: 'fake-token', event: { pull_request: { number: 7, head: { sha: HEAD } } }, run_id: '555' },
    steps: {},
    runner: { temp: runnerTemp },
  });
  const runnerEnv = (extra: Record<string, string> = {}) => ({
    GITHUB_REPOSITORY: 'acme/platform',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_RUN_ID: '555',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_SHA: MERGE,
    GITHUB_REF_NAME: 'main',
    GITHUB_EVENT_NAME: 'push',
    RUNNER_TEMP: runnerTemp,
    FAKE_GH_STATE: ghState,
    ...extra,
  });
  const step = (workflow: Workflow, job: string, name: string, cwd: string, ctx: ExpressionContext, env?: Record<string, string>): Promise<StepResult> =>
    runStep({ workflow, job, step: name, cwd, context: ctx, runnerEnv: runnerEnv(env) });

  /** A checkout of main: examples/ as manifests/, and the last-applied record once apply.yml committed one. */
  async function checkout(): Promise<string> {
    const dir = await makeWorkspace();
    await cp(EXAMPLES, join(dir, 'manifests'), { recursive: true });
    if (committedRecord) await cp(committedRecord, join(dir, '.switchboard/last-applied.demo.json'));
    return dir;
  }
  let committedRecord: string | undefined;

  /**
   * The plan job after its two checkouts (the base branch at the root, the pull request under
   * pull-request/) and its "Take the manifests from the pull request" step, run for real.
   */
  async function pullRequest(edit?: (manifests: string) => Promise<void>): Promise<string> {
    const dir = await checkout();
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

  let reviewed: string; // the PR workspace whose plan was reviewed

  it('plan.yml: validates, writes plan.md and plan.json, keeps ONE pull-request comment (created, then updated)', async () => {
    await fakeGitHub(ghState, { comments: [{ id: 1, issue: 7, body: 'LGTM' }] });
    reviewed = await pullRequest();
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
    const json = JSON.parse(await readFile(join(reviewed, 'plan.json'), 'utf8')) as { formatVersion: number; summary: { create: number } };
    expect(json.formatVersion).toBe(1);
    expect(json.summary.create).toBeGreaterThan(0);

    for (let i = 0; i < 2; i++) {
      const posted = await step(plan, 'plan', 'Post the plan on the pull request', reviewed, ctx);
      expect(posted.code, posted.stderr).toBe(0);
      expect(posted.stdout).toContain(i === 0 ? 'Created the plan comment.' : 'Updated comment 100.');
    }
    const gh = await readFakeGitHub(ghState);
    expect(gh.comments).toHaveLength(2);
    expect(gh.comments[0]?.body).toBe('LGTM');
    const comment = gh.comments[1]?.body ?? '';
    expect(comment.startsWith('<!-- switchboard-plan -->\n### switchboard plan')).toBe(true);
    expect(comment).toContain(`artifact <code>switchboard-plan-${HEAD}</code>`);
    expect(comment.length).toBeLessThan(65_536);
  }, 60_000);

  it('plan.yml: invalid manifests fail the job (exit 1) and the comment shows the errors', async () => {
    await fakeGitHub(ghState);
    const dir = await pullRequest((manifests) => writeFile(join(manifests, 'broken.yaml'), 'apiVersion: switchboard/v1\nkind: Tenant\nmetadata: { name: broken, reseller: north }\nspec: { billingID: X }\n'));
    const ctx = context();
    const validated = await step(plan, 'plan', 'Validate the manifests', dir, ctx);
    expect(validated.code).toBe(1);
    const posted = await step(plan, 'plan', 'Post the plan on the pull request', dir, ctx);
    expect(posted.code, posted.stderr).toBe(0);
    const body = (await readFakeGitHub(ghState)).comments[0]?.body ?? '';
    expect(body).toContain('**No plan: the manifests are invalid or switchboard could not plan.**');
    expect(body).toMatch(/broken\.yaml:4:\d+: error SB_UNKNOWN_FIELD/);
  }, 60_000);

  it('plan.yml: a symbolic link among the pull request\'s manifests is refused before switchboard runs', async () => {
    const dir = await checkout();
    await cp(EXAMPLES, join(dir, 'pull-request/manifests'), { recursive: true });
    await symlink('/etc/hostname', join(dir, 'pull-request/manifests/tenants/hosts.csv'));
    const taken = await step(plan, 'plan', 'Take the manifests from the pull request', dir, context());
    expect(taken.code).toBe(1);
    expect(taken.stdout).toContain("::error::The pull request's manifests hold a symbolic link (manifests/tenants/hosts.csv): refused.");
  });

  it('every step that runs switchboard fails when switchboard fails (no pipe, subshell or `set +e` hides it)', async () => {
    const bin = await mkdtemp(join(tmpdir(), 'switchboard-gha-failing-'));
    await writeFile(join(bin, 'npx'), '#!/bin/sh\necho "npx $*: simulated failure" >&2\nexit 1\n', { mode: 0o755 });
    let checked = 0;
    for (const workflow of [plan, apply, drift]) {
      for (const [job, { steps }] of Object.entries(workflow.jobs)) {
        for (const s of steps.filter((x) => x.run?.includes('npx switchboard'))) {
          const dir = await checkout();
          const result = await runStep({ workflow, job, step: s.name ?? s.id ?? '', cwd: dir, context: context(), runnerEnv: runnerEnv(), binFirst: bin });
          expect(result.code, `${workflow.name}: ${s.name}`).not.toBe(0);
          expect(result.stderr, `${workflow.name}: ${s.name}`).toContain('simulated failure');
          checked++;
        }
      }
    }
    expect(checked).toBe(4); // validate and plan (plan.yml), apply, drift's plan
    // The same Validate step under GitHub's default shell (no `shell: bash`): bash -e, no pipefail, exit 0.
    const { defaults: _bash, ...withoutShell } = plan;
    const dir = await checkout();
    const hidden = await runStep({ workflow: withoutShell, job: 'plan', step: 'validate', cwd: dir, context: context(), runnerEnv: runnerEnv(), binFirst: bin });
    expect(hidden.stderr).toContain('simulated failure');
    expect(hidden.code).toBe(0);
  }, 60_000);

  it('apply.yml: finds the merged PR\'s plan artifact, applies exactly that plan, commits the last-applied record', async () => {
    await fakeGitHub(ghState, {
      pulls: { [MERGE]: [{ number: 7, merged_at: '2026-11-22T10:00:00Z', head: { sha: HEAD } }] },
      artifacts: [{ name: `switchboard-plan-${HEAD}`, expired: false, workflow_run: { id: 4242 } }],
    });
    const main = await checkout();
    const remote = await gitRepo(main);
    const ctx = context();
    const found = await step(apply, 'apply', 'find', main, ctx);
    expect(found.code, found.stderr).toBe(0);
    expect(found.outputs).toEqual({ pr: '7', name: `switchboard-plan-${HEAD}`, run_id: '4242' });
    // actions/download-artifact@v4 with name + run-id: the reviewed plan lands in reviewed-plan/
    await downloadArtifact(reviewed, main);

    const applied = await step(apply, 'apply', 'Apply', main, ctx);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('Applying the plan reviewed on pull request #7.');
    expect(applied.stdout).toMatch(/Apply complete: \d+ applied, 0 failed, 0 skipped/);
    const journal = await readFile(join(runnerTemp, 'switchboard/journal-555-1.jsonl'), 'utf8');
    expect(journal).toContain('"event":"end"');

    const committed = await step(apply, 'apply', 'Commit the last-applied record', main, ctx);
    expect(committed.code, committed.stderr).toBe(0);
    const { stdout: log } = await git('git', ['--git-dir', remote, 'log', '-1', '--format=%s', '--name-only', 'main']);
    expect(log).toContain(`switchboard: last-applied record after ${MERGE} [skip ci]`);
    expect(log).toContain('.switchboard/last-applied.demo.json');
    const again = await step(apply, 'apply', 'Commit the last-applied record', main, ctx);
    expect(again.stdout).toContain('The last-applied record did not change.');
    committedRecord = join(main, '.switchboard/last-applied.demo.json');
  }, 90_000);

  it('drift.yml: in sync exits 0; an out-of-band change through the API makes the plan step exit 2 and opens ONE issue; undoing it closes the issue', async () => {
    await fakeGitHub(ghState);
    const dir = await checkout();
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

  it('apply.yml: a reviewed plan made stale by an out-of-band change is refused (exit 3) and nothing is changed', async () => {
    // A second pull request: acme-corp's markup 5 → 6, planned and reviewed …
    const pr = await pullRequest(async (manifests) => {
      const file = join(manifests, 'tenants/acme-corp.yaml');
      await writeFile(file, (await readFile(file, 'utf8')).replace(/^ {2}markup: 5$/m, '  markup: 6'));
    });
    await fakeGitHub(ghState);
    const planned = await step(plan, 'plan', 'plan', pr, context());
    expect(planned.outputs['exitcode']).toBe('2');
    // … then someone changes the tenant by hand before the merge.
    const api = await adminApi(sim.url);
    const acme = await tenantUuid('acme-corp');
    expect((await api('PUT', `/api/v01/draas/demo/tenants/${acme}`, { markup: 8 })).status).toBe(200);

    await fakeGitHub(ghState, {
      pulls: { [MERGE]: [{ number: 8, merged_at: '2026-11-22T11:00:00Z', head: { sha: HEAD } }] },
      artifacts: [{ name: `switchboard-plan-${HEAD}`, expired: false, workflow_run: { id: 4343 } }],
    });
    const main = await checkout();
    await cp(join(pr, 'manifests'), join(main, 'manifests'), { recursive: true, force: true });
    const ctx = context();
    expect((await step(apply, 'apply', 'find', main, ctx)).outputs['run_id']).toBe('4343');
    await downloadArtifact(pr, main);
    const refused = await step(apply, 'apply', 'Apply', main, ctx);
    expect(refused.code).toBe(3);
    expect(`${refused.stdout}${refused.stderr}`).toMatch(/stale/i);
    expect(refused.stdout).toContain('::error::Refused (exit 3), nothing was changed');
    const tenant = (await api('GET', `/api/v01/draas/demo/tenants/${acme}`)).body as { markups?: { markup: number }[] };
    expect(tenant.markups?.[0]?.markup).toBe(8);

    // Without a reviewed plan (a direct push), the same step plans afresh and applies with --yes.
    await fakeGitHub(ghState);
    const fresh = await checkout();
    await cp(join(pr, 'manifests'), join(fresh, 'manifests'), { recursive: true, force: true });
    const ctx2 = context();
    const none = await step(apply, 'apply', 'find', fresh, ctx2);
    expect(none.stdout).toContain('No merged pull request');
    const applied = await step(apply, 'apply', 'Apply', fresh, ctx2);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('No reviewed plan for this commit: planning and applying.');
    expect(((await api('GET', `/api/v01/draas/demo/tenants/${acme}`)).body as { markups: { markup: number }[] }).markups[0]?.markup).toBe(6);
  }, 90_000);

  async function tenantUuid(name: string): Promise<string> {
    const state = (await (await fetch(`${sim.url}/_sim/state`)).json()) as { tables: { tenants: { name: string; uuid: string }[] } };
    const uuid = state.tables.tenants.find((t) => t.name === name)?.uuid;
    if (!uuid) throw new Error(`no tenant ${name}`);
    return uuid;
  }
});

/** What actions/download-artifact does with the plan artifact (plan.json and plan.md). */
async function downloadArtifact(from: string, into: string): Promise<void> {
  await mkdir(join(into, 'reviewed-plan'), { recursive: true });
  for (const f of ['plan.json', 'plan.md']) await cp(join(from, f), join(into, 'reviewed-plan', f));
}

/** Makes `dir` a git checkout of main with a bare remote (returned), as actions/checkout leaves it. */
async function gitRepo(dir: string): Promise<string> {
  const remote = await mkdtemp(join(tmpdir(), 'switchboard-gha-remote-'));
  const run = (args: string[], cwd = dir) => git('git', args, { cwd });
  await run(['init', '--bare', '-b', 'main', remote], remote);
  await run(['init', '-b', 'main']);
  await writeFile(join(dir, '.gitignore'), 'node_modules/\nplan.*\nreviewed-plan/\n');
  await run(['add', '.']);
  await run(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'manifests']);
  await run(['remote', 'add', 'origin', remote]);
  await run(['push', '-q', 'origin', 'main']);
  return remote;
}

describe('README "GitOps": rehearsing a pull request on a simulator loaded from an export of production', () => {
  let prod: RunningSimulator;
  let rehearsal: RunningSimulator;
  beforeAll(async () => {
    [prod, rehearsal] = await Promise.all([startSimulator({ port: 0 }), startSimulator({ port: 0 })]);
  });
  afterAll(async () => {
    await Promise.all([prod.close(), rehearsal.close()]);
  });

  it('CONTRACT §1 export/--seed/--state: the copy plans the export as "No changes."; the PR plans its change there too, plus only what export cannot read', async () => {
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
    expect(inCopy.changes).toContainEqual(expect.objectContaining({ action: 'update', address: 'tenant/acme-corp', patch: [{ op: 'replace', path: '/markup', value: 6 }] }));
    // What export leaves out (README "Adopting an existing platform"): administrators, write-only values, trunk-group lists, routing tables.
    // Everything else is what export cannot read (README "Adopting an existing platform"): administrators, write-only
    // values, trunk groups' lists, routing tables.
    const writeOnly: Record<string, string[]> = { Entitlement: ['externalReference'], Reseller: ['suspensionProfile'] };
    for (const c of inCopy.changes.filter((x) => x.address !== 'tenant/acme-corp')) {
      const what = `${c.action} ${c.address}`;
      if (c.kind in writeOnly) expect(Object.keys(c.after ?? {}).every((f) => writeOnly[c.kind]?.includes(f)), what).toBe(true);
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
  changes: { action: string; address: string; kind: string; after?: Record<string, unknown> | null; patch?: unknown[] }[];
}
async function planJson(path: string, options: { env: Record<string, string>; cwd: string }): Promise<PlanJson> {
  const result = await runCli(['plan', path, '--format', 'json'], options);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as PlanJson;
}
