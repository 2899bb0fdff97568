/**
 * The chain from review to audit, run as GitHub would run it: whole runs of the example
 * workflows (every job and step as written, `if:` and `needs` included) against a simulator,
 * on a git repository with pull requests, merges and direct pushes, a fake `gh` serving the
 * API (pull requests of a commit, comments, workflow runs, their artifacts, approvals) and
 * the artifact actions emulated per run (workflows/runner.ts). The approver of the
 * `production` environment is the test: it reads the plan job's summary, then approves or
 * not. Then `audit` reads the history the apply job committed.
 */
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { EXAMPLES, adminApi, runCli } from './cli-helpers.js';
import {
  fakeGitHub,
  loadWorkflow,
  makeWorkspace,
  readFakeGitHub,
  updateFakeGitHub,
  type StepResult,
  type Workflow,
} from './workflows/harness.js';
import { Repository } from './workflows/repository.js';
import { runWorkflow, type JobRun, type RunInfo } from './workflows/runner.js';

const PLAN_WORKFLOW = '.github/workflows/switchboard-plan.yml';
const APPLY_WORKFLOW = '.github/workflows/switchboard-apply.yml';
const DIGEST = /sha256:[0-9a-f]{64}/;

describe('the chain: a reviewed pull request, merged, planned again, approved, applied, committed, audited', () => {
  let sim: RunningSimulator;
  let repo: Repository;
  let runnerTemp: string;
  let ghState: string;
  let planWorkflow: Workflow;
  let applyWorkflow: Workflow;
  let nextRun = 4000;
  /** The change-set digests of the pull requests' plans, as their comments show them. */
  const reviewed = new Map<number, string>();

  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    runnerTemp = await mkdtemp(join(tmpdir(), 'switchboard-gha-runner-'));
    ghState = join(runnerTemp, 'gh.json');
    await fakeGitHub(ghState);
    repo = await Repository.create();
    planWorkflow = await loadWorkflow('plan.yml');
    applyWorkflow = await loadWorkflow('apply.yml');
  });
  afterAll(async () => {
    await sim.close();
  });

  const secrets = () => ({
    SWITCHBOARD_URL: sim.url,
    SWITCHBOARD_RE_URL: sim.url,
    SWITCHBOARD_READONLY_USERNAME: 'reader', // the simulator's reader: GET only
    SWITCHBOARD_READONLY_PASSWORD: 'reader',
    SWITCHBOARD_RE_READONLY_USERNAME: 'routing',
    SWITCHBOARD_RE_READONLY_PASSWORD: 'routing',
    SWITCHBOARD_USERNAME: 'admin', // the production environment's
    SWITCHBOARD_PASSWORD: 'admin',
    SWITCHBOARD_RE_USERNAME: 'routing',
    SWITCHBOARD_RE_PASSWORD: 'routing',
  });

  /** One run of `workflow` for `event` on commit `sha`, with what GitHub gives it. */
  async function run(
    workflow: Workflow,
    event: 'pull_request' | 'push' | 'workflow_dispatch',
    sha: string,
    options: { pr?: { number: number; base: string }; approve?: Parameters<typeof runWorkflow>[0]['approve'] } = {},
  ): Promise<{ jobs: Record<string, JobRun>; run: RunInfo }> {
    const id = nextRun++;
    const info: RunInfo = {
      id,
      attempt: 1,
      path: workflow === planWorkflow ? PLAN_WORKFLOW : APPLY_WORKFLOW,
      event,
      headSha: sha,
      ghState,
      artifactsRoot: join(runnerTemp, 'artifacts'),
    };
    const pr = options.pr;
    const ref = pr ? `refs/pull/${pr.number}/merge` : 'refs/heads/main';
    const jobs = await runWorkflow({
      workflow,
      run: info,
      context: {
        secrets: secrets(),
        github: {
          token: 'fake-token',
          event_name: event,
          ref,
          sha,
          run_id: String(id),
          run_attempt: '1',
          repository: 'acme/platform',
          event: {
            repository: { default_branch: 'main' },
            ...(pr ? { pull_request: { number: pr.number, head: { sha }, base: { sha: pr.base } } } : {}),
          },
        },
        runner: { temp: join(runnerTemp, String(id)) },
      },
      runnerEnv: {
        GITHUB_REPOSITORY: 'acme/platform',
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_RUN_ID: String(id),
        GITHUB_RUN_ATTEMPT: '1',
        GITHUB_SHA: sha,
        GITHUB_REF: ref,
        GITHUB_REF_NAME: pr ? `${pr.number}/merge` : 'main',
        GITHUB_EVENT_NAME: event,
        GITHUB_ACTOR: 'merger',
        GITHUB_TRIGGERING_ACTOR: 'merger',
        RUNNER_TEMP: join(runnerTemp, String(id)),
        FAKE_GH_STATE: ghState,
      },
      workspace: () => makeWorkspace(),
      actions: { 'actions/checkout': repo.checkout(), 'actions/setup-node': async () => undefined },
      ...(options.approve ? { approve: options.approve } : {}),
    });
    return { jobs, run: info };
  }

  /** A pull request from main with `edit`, planned by plan.yml: its head commit. */
  async function pullRequest(number: number, edit: (dir: string) => Promise<void>): Promise<string> {
    const base = await repo.head('main');
    const head = await repo.push(`pr-${number}`, edit, 'main');
    const { jobs } = await run(planWorkflow, 'pull_request', head, { pr: { number, base } });
    expect(jobs['plan']?.result, stepErrors(jobs['plan'])).toBe('success');
    const comment = (await readFakeGitHub(ghState)).comments.filter((c) => c.issue === number).at(-1)?.body ?? '';
    const digests = /<!-- switchboard-plan-digests head=([0-9a-f]{40}) plan=(\S+) change-set=(\S+) -->/.exec(comment);
    expect(digests?.[1]).toBe(head);
    reviewed.set(number, digests?.[3] ?? '');
    return head;
  }

  /** GitHub's merge button: the merge commit, and the pull request it lists for that commit. */
  async function merge(number: number, head: string): Promise<string> {
    const sha = await repo.merge(`pr-${number}`);
    await updateFakeGitHub(ghState, (s) => {
      s.pulls[sha] = [
        {
          number,
          merged_at: new Date().toISOString(),
          merge_commit_sha: sha,
          base: { ref: 'main' },
          head: { sha: head },
        },
      ];
    });
    return sha;
  }

  /** Approves the run's production deployment as `login` (what GitHub records when a reviewer approves). */
  function approveAs(login: string, seen: string[], before?: () => Promise<void>) {
    return async (job: string, environment: string, jobs: Record<string, JobRun>, info: RunInfo): Promise<boolean> => {
      expect([job, environment]).toEqual(['apply', 'production']);
      seen.push(jobs['plan']?.summary ?? '');
      await before?.();
      await updateFakeGitHub(ghState, (s) => {
        s.approvals[String(info.id)] = [
          { state: 'approved', environments: [{ name: 'production' }], user: { login }, comment: 'read the plan' },
        ];
      });
      return true;
    };
  }
  const nobodyApproves = (seen: string[]) => async (_job: string, _env: string, jobs: Record<string, JobRun>) => {
    seen.push(jobs['plan']?.summary ?? '');
    return false;
  };

  const markupOf = async (tenant: string): Promise<number | undefined> => {
    const state = (await (await fetch(`${sim.url}/_sim/state`)).json()) as {
      tables: { tenants: { name: string; uuid: string }[] };
    };
    const uuid = state.tables.tenants.find((t) => t.name === tenant)?.uuid;
    if (!uuid) return undefined;
    const api = await adminApi(sim.url);
    const body = (await api('GET', `/api/v01/draas/demo/tenants/${uuid}`)).body as { markups?: { markup: number }[] };
    return body.markups?.[0]?.markup;
  };
  const setMarkup = (tenant: string, markup: number) => async (dir: string) => {
    const file = join(dir, `manifests/tenants/${tenant}.yaml`);
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^ {2}markup: [\d.]+$/m, `  markup: ${markup}`));
  };

  let historyRuns: string[] = [];
  const times: string[] = [];

  it('plan.yml on pull request #7: the plan comment by github-actions[bot] carries the head commit and both digests, the plan artifact is in the run', async () => {
    const head = await pullRequest(7, (dir) => cp(EXAMPLES, join(dir, 'manifests'), { recursive: true }));
    const gh = await readFakeGitHub(ghState);
    const comment = gh.comments.find((c) => c.issue === 7);
    expect(comment?.user?.login).toBe('github-actions[bot]');
    expect(comment?.body).toContain('tenant/hooli-be');
    expect(reviewed.get(7)).toMatch(DIGEST);
    expect(comment?.body).toContain(reviewed.get(7));
    const planRun = gh.runs.at(-1);
    expect(planRun).toMatchObject({
      path: PLAN_WORKFLOW,
      event: 'pull_request',
      head_sha: head,
      conclusion: 'success',
    });
    expect(gh.artifacts).toContainEqual(
      expect.objectContaining({
        name: `switchboard-plan-${head}`,
        workflow_run: expect.objectContaining({ id: planRun?.id }),
      }),
    );
  }, 120_000);

  it('its merge: job 1 says "identical to the plan reviewed on #7" in the summary the approver reads; approved, job 2 applies that very plan and commits journal, plan and record', async () => {
    const head = (await readFakeGitHub(ghState)).runs.at(-1)?.head_sha ?? '';
    const sha = await merge(7, head);
    const seen: string[] = [];
    times.push(new Date().toISOString());
    const { jobs, run: applyRun } = await run(applyWorkflow, 'push', sha, { approve: approveAs('alice', seen) });
    times.push(new Date().toISOString());
    expect(jobs['plan']?.result, stepErrors(jobs['plan'])).toBe('success');
    // What the approver saw before approving: the verdict, then the plan itself.
    expect(seen).toHaveLength(1);
    expect(seen[0]).toContain(`**Identical to the plan reviewed on #7** (change set \`${reviewed.get(7)}\`)`);
    expect(seen[0]).toContain('tenant/hooli-be');
    expect(seen[0]).toMatch(/Approving the `production` environment applies exactly this plan/);
    expect(jobs['apply']?.result, stepErrors(jobs['apply'])).toBe('success');
    expect(await markupOf('acme-corp')).toBe(5);

    // The apply job applied the artifact job 1 uploaded in this run, nothing else.
    const applied = stepResult(jobs['apply'], 'Apply');
    expect(applied.stdout).toMatch(/Apply complete: \d+ applied, 0 failed, 0 skipped/);
    expect(applied.stdout).toContain('(approved-plan/plan.json)');
    expect(applied.summary).toContain('### switchboard apply: what was applied');
    const gh = await readFakeGitHub(ghState);
    expect(gh.artifacts).toContainEqual(
      expect.objectContaining({
        name: `switchboard-apply-plan-${applyRun.id}`,
        workflow_run: expect.objectContaining({ id: applyRun.id }),
      }),
    );

    // Committed: the history (journal and plan) next to the last-applied record, by the bot, [skip ci].
    const clone = await repo.clone('main');
    expect(await repo.git(clone, 'log', '-1', '--format=%an %s')).toBe(
      `github-actions[bot] switchboard: history and last-applied record after ${sha} [skip ci]`,
    );
    historyRuns = await readdir(join(clone, '.switchboard/history'));
    expect(historyRuns).toEqual([expect.stringMatching(new RegExp(`^\\d{4}-\\d{2}-\\d{2}-run-${applyRun.id}-1$`))]);
    const folder = join(clone, '.switchboard/history', historyRuns[0] ?? '');
    const plan = JSON.parse(await readFile(join(folder, 'plan.json'), 'utf8')) as { digest: string };
    const start = JSON.parse((await readFile(join(folder, 'journal.jsonl'), 'utf8')).split('\n')[0] ?? '{}');
    expect(start).toMatchObject({
      plan: { digest: plan.digest, source: 'file', file: 'approved-plan/plan.json' },
      actor: { username: 'admin', login: 'password' },
      review: { pullRequest: 7, reviewedChangeSet: reviewed.get(7), approvedBy: ['alice'] },
      sources: { actor: 'authenticated', plan: 'computed', ci: 'environment', review: 'environment' },
      ci: { vars: { GITHUB_ACTOR: 'merger', GITHUB_SHA: sha } },
    });
    expect(await readdir(join(clone, '.switchboard'))).toContain('last-applied.demo.json');
    // The plan job held no apply credential; the apply job read who approved.
    expect(gh.calls.some((c) => c.endpoint === `repos/acme/platform/actions/runs/${applyRun.id}/approvals`)).toBe(true);
  }, 180_000);

  it('a direct push: no reviewed pull request, the plan in the summary; without an approval nothing is applied', async () => {
    const sha = await repo.push('main', setMarkup('globex', 7));
    const seen: string[] = [];
    const { jobs } = await run(applyWorkflow, 'push', sha, { approve: nobodyApproves(seen) });
    expect(jobs['plan']?.result, stepErrors(jobs['plan'])).toBe('success');
    expect(seen[0]).toContain(
      `**No reviewed pull request**: a direct push: ${sha} is not the merge of a pull request.`,
    );
    expect(seen[0]).toMatch(/tenant\/globex[\s\S]*- markup: 2\n\+ markup: 7/);
    expect(jobs['apply']?.result).toBe('waiting');
    expect(jobs['apply']?.steps).toEqual([]);
    expect(await markupOf('globex')).toBe(2);
  }, 120_000);

  it("a change on main between review and merge: DIFFERS from the plan reviewed on #8, and how; another user's comment or another workflow's artifact is not taken for the review", async () => {
    const head = await pullRequest(8, setMarkup('acme-corp', 6));
    const forged = `<!-- switchboard-plan -->\n<!-- switchboard-plan-digests head=${head} plan=sha256:${'0'.repeat(64)} change-set=sha256:${'1'.repeat(64)} -->`;
    await updateFakeGitHub(ghState, (s) => {
      s.comments.push({ id: s.nextId++, issue: 8, body: forged, user: { login: 'mallory' } });
    });
    const sha = await merge(8, head);
    const seen: string[] = [];
    const { jobs } = await run(applyWorkflow, 'push', sha, { approve: approveAs('bob', seen) });
    expect(jobs['plan']?.result, stepErrors(jobs['plan'])).toBe('success');
    expect(seen[0]).toContain(
      `**DIFFERS from the plan reviewed on #8**: it reviewed the change set \`${reviewed.get(8)}\``,
    );
    expect(seen[0]).not.toContain('1111111111');
    // The difference: globex's change from the direct push, which #8's plan did not hold.
    expect(seen[0]).toContain('`plan.json` is the plan to apply, `reviewed-plan/plan.json` the one reviewed on #8');
    expect(seen[0]).toContain('| <code>tenant/globex</code> | only plan.json | update |');
    expect(seen[0]).not.toMatch(/\| <code>tenant\/acme-corp<\/code> \|/);
    // Approved after reading it: both changes applied, and the record keeps both digests.
    expect(jobs['apply']?.result, stepErrors(jobs['apply'])).toBe('success');
    expect([await markupOf('acme-corp'), await markupOf('globex')]).toEqual([6, 7]);
    times.push(new Date().toISOString());
  }, 180_000);

  it('audit --target tenant/acme-corp* --since --until of the committed history: the field changes before → after, who, which pull request and plan', async () => {
    const clone = await repo.clone('main');
    const history = join(clone, '.switchboard/history');
    expect(await readdir(history)).toHaveLength(2);
    const audit = (since: string, until: string) =>
      runCli([
        'audit',
        history,
        '--target',
        'tenant/acme-corp*',
        '--since',
        since,
        '--until',
        until,
        '--format',
        'json',
      ]);
    const second = await audit(times[1] ?? '', times[2] ?? '');
    expect(second.code, second.stderr).toBe(0);
    const rows = JSON.parse(second.stdout) as Record<string, unknown>[];
    expect(rows).toEqual([
      expect.objectContaining({
        address: 'tenant/acme-corp',
        action: 'update',
        outcome: 'applied',
        fields: [{ field: 'markup', before: 5, after: 6 }],
        actor: 'admin',
        ciActor: 'merger',
        approvedBy: ['bob'],
        pullRequest: 8,
        pullRequestUrl: 'https://github.com/acme/platform/pull/8',
        planDigest: expect.stringMatching(DIGEST),
        changeSetDigest: expect.stringMatching(DIGEST),
        reviewedChangeSet: reviewed.get(8),
      }),
    ]);
    expect(rows[0]?.['changeSetDigest']).not.toBe(reviewed.get(8));
    // The first apply (#7) for the same tenant: its own rows, its own pull request.
    const first = JSON.parse((await audit(times[0] ?? '', times[1] ?? '')).stdout) as Record<string, unknown>[];
    expect(first.length).toBeGreaterThan(1);
    expect(first.every((r) => r['pullRequest'] === 7 && String(r['address']).startsWith('tenant/acme-corp'))).toBe(
      true,
    );
    expect(first).toContainEqual(
      expect.objectContaining({ address: 'tenant/acme-corp', fields: [{ field: 'markup', before: 4, after: 5 }] }),
    );
    const csv = await runCli(['audit', history, '--target', 'tenant/acme-corp', '--since', times[1] ?? '']);
    expect(csv.stdout).toContain('markup: 5 → 6');
  }, 60_000);

  it('a manual run approved after the platform changed: the plan job says nobody reviewed it; the apply refuses the stale plan (exit 3), nothing changed', async () => {
    await repo.push('main', setMarkup('acme-corp', 7));
    const sha = await repo.head('main');
    const seen: string[] = [];
    const api = await adminApi(sim.url);
    const { jobs } = await run(applyWorkflow, 'workflow_dispatch', sha, {
      approve: approveAs('alice', seen, async () => {
        // Between the plan job and the approval, someone changes the tenant by hand.
        const state = (await (await fetch(`${sim.url}/_sim/state`)).json()) as {
          tables: { tenants: { name: string; uuid: string }[] };
        };
        const uuid = state.tables.tenants.find((t) => t.name === 'acme-corp')?.uuid;
        expect((await api('PUT', `/api/v01/draas/demo/tenants/${uuid}`, { markup: 9 })).status).toBe(200);
      }),
    });
    expect(seen[0]).toContain('**No reviewed pull request**: a manual run (workflow_dispatch)');
    expect(jobs['apply']?.result).toBe('failure');
    const refused = stepResult(jobs['apply'], 'Apply');
    expect(refused.code).toBe(3);
    expect(refused.stdout).toContain('::error::Refused (exit 3), nothing was changed');
    expect(await markupOf('acme-corp')).toBe(9);
  }, 180_000);
});

function stepResult(job: JobRun | undefined, name: string): StepResult {
  const step = job?.steps.find((s) => s.name === name);
  if (!step || typeof step.result !== 'object') throw new Error(`step ${name} did not run: ${stepErrors(job)}`);
  return step.result;
}

/** What went wrong in a job, for an assertion's message. */
function stepErrors(job: JobRun | undefined): string {
  if (!job) return 'the job did not run';
  return job.steps
    .map((s) =>
      typeof s.result === 'object'
        ? `${s.name}: exit ${s.result.code}\n${s.result.stdout}\n${s.result.stderr}`
        : `${s.name}: ${s.result}${s.error ? ` (${s.error})` : ''}`,
    )
    .join('\n');
}
