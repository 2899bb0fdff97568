/**
 * The example GitHub workflows (examples/.github/workflows/) as GitHub Actions reads them,
 * and what makes them safe to copy: where credentials are, what runs next to them, how
 * actions are pinned, which shell runs the blocks.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { WORKFLOWS as SCAFFOLDED } from '../../src/init/scaffold.js';
import { REPO_ROOT, WORKFLOWS, findStep, loadWorkflow, type Workflow } from './workflows/harness.js';

const FILES = ['plan.yml', 'apply.yml', 'drift.yml'] as const;
/**
 * Not credentials, and the same for every job: where the platform and the routing engine
 * are, and the key of the value digests (a plan and its apply must hold the same one).
 */
const LOCATION_SECRETS = [
  'SWITCHBOARD_URL',
  'SWITCHBOARD_INSTANCE',
  'SWITCHBOARD_RE_URL',
  'SWITCHBOARD_DIGEST_KEY',
  'SWITCHBOARD_DIGEST_KEY_PREVIOUS',
  'SWITCHBOARD_NOTIFY_URL', // a channel's webhook: it can post a message, not change the platform
  'SWITCHBOARD_CACHE_KEY', // proves the manifest cache's entries: opens nothing on the platform
];
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
  'actions/cache': { sha: '27d5ce7f107fe9357f9df03efb73ab90386fccae', tag: 'v5.0.5' },
};

/** Every `uses:` line of a workflow file as written (comments included): `action@ref # comment`. */
async function usesLines(path: string): Promise<string[]> {
  return [...(await readFile(path, 'utf8')).matchAll(/^\s*(?:- )?uses: (.*)$/gm)].map((m) => m[1] ?? '');
}

describe('examples/.github/workflows: valid GitHub Actions workflows, safe to copy', () => {
  const workflows = new Map<string, Workflow>();
  beforeAll(async () => {
    for (const file of FILES) workflows.set(file, await loadWorkflow(file));
  });
  const each = (fn: (w: Workflow, file: string) => void) => () =>
    FILES.forEach((f) => fn(workflows.get(f) as Workflow, f));

  it(
    'have a name, triggers, least-privilege permissions and jobs whose steps each use or run',
    each((w, file) => {
      expect(w.name, file).toMatch(/^switchboard /);
      expect(Object.keys(w.on).length, file).toBeGreaterThan(0);
      expect(w.permissions, file).toBeDefined();
      expect(
        Object.values(w.permissions ?? {}).every((p) => p === 'read' || p === 'write'),
        file,
      ).toBe(true);
      for (const [name, job] of Object.entries(w.jobs)) {
        expect(
          Object.values(job.permissions ?? {}).every((p) => p === 'read' || p === 'write'),
          `${file} ${name}`,
        ).toBe(true);
        expect(job['runs-on'], `${file} ${name}`).toBe('ubuntu-latest');
        expect(job['timeout-minutes'], `${file} ${name}`).toBeGreaterThan(0);
        const ids = new Set<string>();
        for (const step of job.steps) {
          expect(
            Number(step.uses !== undefined) + Number(step.run !== undefined),
            `${file}: ${step.name ?? step.uses}`,
          ).toBe(1);
          // every steps.<id> reference names an earlier step
          for (const [, ref] of JSON.stringify(step).matchAll(/steps\.([\w-]+)\./g))
            expect(ids.has(ref ?? ''), `${file}: steps.${ref}`).toBe(true);
          if (step.id) ids.add(step.id);
        }
      }
    }),
  );

  it(
    "run every block with shell: bash, so that pipefail applies (GitHub's default, bash -e, ignores a failing `validate | tee`)",
    each((w, file) => {
      expect(w.defaults?.run?.shell, file).toBe('bash');
      for (const job of Object.values(w.jobs))
        for (const step of job.steps) expect(step.shell ?? 'bash', `${file}: ${step.name}`).toBe('bash');
    }),
  );

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

  it('drift.yml and apply.yml hand the notification webhook to switchboard; apply leaves drift to drift.yml', () => {
    const drift = findStep(workflows.get('drift.yml') as Workflow, 'drift', 'Plan');
    const apply = findStep(workflows.get('apply.yml') as Workflow, 'apply', 'Apply');
    for (const step of [drift, apply]) {
      expect(step.env?.['SWITCHBOARD_NOTIFY_URL']).toBe('${{ secrets.SWITCHBOARD_NOTIFY_URL }}');
    }
    expect(apply.run).toMatch(/switchboard apply .* --notify-on apply-failed,refused\n/);
  });

  it('plan.yml and apply.yml watch the same paths', () => {
    const paths = (file: string, event: string) =>
      ((workflows.get(file) as Workflow).on[event] as { paths: string[] }).paths;
    expect(paths('plan.yml', 'pull_request')).toEqual(paths('apply.yml', 'push'));
    expect(paths('plan.yml', 'pull_request')).toEqual(
      expect.arrayContaining(['manifests/**', 'switchboard.config.yaml', 'package-lock.json']),
    );
  });

  it(
    'take credentials only from ${{ secrets.* }}, only in the env of the steps that talk to the platform',
    each((w, file) => {
      expect(JSON.stringify(w.env ?? {}), file).not.toMatch(/secrets\./);
      for (const job of Object.values(w.jobs)) {
        expect(JSON.stringify(job.env ?? {}), file).not.toMatch(/secrets\./);
        for (const step of job.steps) {
          // no expression inside a script (no injection, and the scripts run as written outside GitHub)
          expect(step.run ?? '', `${file}: ${step.name}`).not.toContain('${{');
          expect(JSON.stringify(step.with ?? {}), `${file}: ${step.name}`).not.toMatch(/secrets\./);
          for (const [key, value] of Object.entries(step.env ?? {})) {
            if (!/^SWITCHBOARD_/.test(key))
              expect(String(value), `${file}: ${step.name} ${key}`).not.toMatch(/secrets\./);
          }
          expect(step.run ?? '', file).not.toMatch(/SWITCHBOARD_(PASSWORD|TOKEN|TOTP_SECRET)=/);
        }
      }
    }),
  );

  it('the apply credentials appear only in the job the production environment holds; every other job has read-only ones', () => {
    let gated = 0;
    for (const file of FILES) {
      for (const [name, job] of Object.entries((workflows.get(file) as Workflow).jobs)) {
        const where = `${file} ${name}`;
        const names = [...JSON.stringify(job).matchAll(/secrets\.([A-Za-z_]+)/g)].map((m) => m[1] ?? '');
        const held = job.environment === 'production';
        if (held) gated++;
        expect(names.length, where).toBeGreaterThan(0);
        for (const secret of names) {
          const allowed = LOCATION_SECRETS.includes(secret) || (held ? APPLY_SECRETS : READONLY_SECRETS).test(secret);
          expect(allowed, `${where}: ${secret}`).toBe(true);
        }
        // Each variable switchboard reads gets the secret of its own name there, the read-only one elsewhere.
        for (const step of job.steps) {
          for (const [key, value] of Object.entries(step.env ?? {})) {
            if (!String(value).includes('secrets.')) continue;
            const secret =
              LOCATION_SECRETS.includes(key) || held
                ? key
                : key.replace(/^SWITCHBOARD_(RE_)?/, 'SWITCHBOARD_$1READONLY_');
            expect(value, `${where}: ${step.name} ${key}`).toBe(`\${{ secrets.${secret} }}`);
          }
        }
      }
    }
    expect(gated).toBe(1);
  });

  it('no path runs apply without --plan: the one apply is in the job the production environment holds, and applies the plan artifact its needed job made in the same run', () => {
    const applies: string[] = [];
    for (const file of FILES) {
      const w = workflows.get(file) as Workflow;
      for (const [name, job] of Object.entries(w.jobs)) {
        for (const step of job.steps) {
          for (const line of (step.run ?? '')
            .split('\n')
            .filter((l) => /\bnpx\s+(--\S+\s+)*switchboard\s+apply\b/.test(l))) {
            applies.push(`${file} ${name}: ${line.trim()}`);
            expect(line, `${file} ${name}`).toMatch(/ --plan approved-plan\/plan\.json /);
            expect(job.environment, `${file} ${name}`).toBe('production');
          }
        }
      }
    }
    expect(applies).toEqual([
      'apply.yml apply: npx --no-install switchboard apply "$MANIFESTS" --plan approved-plan/plan.json --yes --state-dir "$STATE_DIR" --journal "$history/journal.jsonl" --notify-on apply-failed,refused',
    ]);
    const w = workflows.get('apply.yml') as Workflow;
    const { plan, apply } = w.jobs;
    expect(apply?.needs).toBe('plan');
    expect(apply?.if).toBe("needs.plan.outputs.changes == 'true'");
    // The artifact of this run (no run-id), named by the plan job, which uploaded its own plan under that name.
    const download = findStep(w, 'apply', 'Download the approved plan');
    expect(download.uses).toMatch(/^actions\/download-artifact@/);
    expect(download.with).toEqual({ name: '${{ needs.plan.outputs.artifact }}', path: 'approved-plan' });
    expect(plan?.outputs?.['artifact']).toBe('${{ steps.plan.outputs.artifact }}');
    const upload = findStep(w, 'plan', 'Upload the plan to approve');
    expect(upload.with?.['name']).toBe('${{ steps.plan.outputs.artifact }}');
    expect(upload.with?.['path']).toContain('plan.json');
    expect(findStep(w, 'plan', 'plan').run).toContain('--out plan.json');
    // The plan job plans with read-only credentials, before the approval, and writes the summary the approver reads.
    expect(plan?.environment).toBeUndefined();
    expect(findStep(w, 'plan', 'Compare with the reviewed plan and write the summary').run).toContain(
      '>> "$GITHUB_STEP_SUMMARY"',
    );
  });

  it('every checkout leaves no credentials behind; the one job that pushes hands its token to git push alone', () => {
    for (const file of FILES) {
      for (const [name, job] of Object.entries((workflows.get(file) as Workflow).jobs)) {
        for (const step of job.steps.filter((s) => s.uses?.startsWith('actions/checkout@')))
          expect(step.with?.['persist-credentials'], `${file} ${name}`).toBe(false);
        const pushes = job.steps.filter((s) => /\bgit\b.*\bpush\b/.test(s.run ?? ''));
        if (pushes.length === 0) continue;
        expect(`${file} ${name}`).toBe('apply.yml apply');
        expect(pushes.map((s) => s.env?.['GH_TOKEN'])).toEqual(['${{ github.token }}']);
        expect(job.permissions?.['contents']).toBe('write');
      }
    }
  });

  it('run switchboard with npx --no-install only: never a download of whatever the registry calls switchboard', () => {
    let calls = 0;
    for (const file of FILES) {
      for (const step of Object.values((workflows.get(file) as Workflow).jobs).flatMap((j) => j.steps)) {
        for (const [call] of (step.run ?? '').matchAll(/\bnpx\b\s+\S+/g)) {
          expect(call, `${file}: ${step.name}`).toBe('npx --no-install');
          calls++;
        }
      }
    }
    expect(calls).toBeGreaterThan(5);
  });

  it('dependabot.yml keeps the pinned actions current, and init ships it with the workflows', async () => {
    const config = parse(await readFile(join(WORKFLOWS, '../dependabot.yml'), 'utf8')) as {
      version: number;
      updates: { 'package-ecosystem': string; directory: string; schedule: { interval: string } }[];
    };
    expect(config.version).toBe(2);
    expect(config.updates).toContainEqual(
      expect.objectContaining({ 'package-ecosystem': 'github-actions', directory: '/' }),
    );
    expect(Object.values(SCAFFOLDED)).toContain('.github/dependabot.yml');
  });

  it('apply.yml: the plan job runs for the default branch only, the apply job after it, held by the "production" environment', () => {
    const w = workflows.get('apply.yml') as Workflow;
    expect(w.jobs['plan']?.if).toBe("github.ref == format('refs/heads/{0}', github.event.repository.default_branch)");
    expect(w.jobs['apply']?.environment).toBe('production');
    expect(Object.keys(w.on).sort()).toEqual(['push', 'workflow_dispatch']);
  });

  it('plan.yml: installs switchboard from the base branch, takes only the manifests from the pull request, before any secret', () => {
    const steps = (workflows.get('plan.yml') as Workflow).jobs['plan']?.steps ?? [];
    const [base, pr] = steps;
    expect(base?.uses).toMatch(/^actions\/checkout@/);
    expect(base?.with).toEqual({
      ref: '${{ github.event.pull_request.base.sha }}',
      'fetch-depth': 1,
      'persist-credentials': false,
    });
    expect(pr?.uses).toMatch(/^actions\/checkout@/);
    expect(pr?.with).toEqual({ path: 'pull-request', 'persist-credentials': false });
    const install = steps.findIndex((s) => s.name === "Install switchboard from the base branch's lockfile");
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

  it("plan.yml: on pull_request, judged by the base commit's policies, writes the PR comment only, uploads the plan named by the head commit", () => {
    const w = workflows.get('plan.yml') as Workflow;
    expect(Object.keys(w.on)).toEqual(['pull_request']);
    expect(w.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    const plan = findStep(w, 'plan', 'plan');
    expect(plan.run).toMatch(
      /switchboard plan "\$MANIFESTS" .*--changed-since "\$BASE_SHA" --policies-from "\$BASE_SHA" --no-check-permissions --detailed-exitcode --out plan\.json --format markdown > plan\.md/,
    );
    // Scoped to the pull request's changes, against the base commit the job checked out.
    expect(plan.env?.['BASE_SHA']).toBe('${{ github.event.pull_request.base.sha }}');
    const upload = findStep(w, 'plan', 'Upload the plan');
    expect(upload.uses).toMatch(/^actions\/upload-artifact@/);
    expect(upload.with?.['name']).toBe('switchboard-plan-${{ github.event.pull_request.head.sha }}');
    expect(upload.with?.['path']).toContain('plan.json');
  });

  it('apply.yml: on push to main, one apply at a time (concurrency, never cancelled); each job asks for what it needs', () => {
    const w = workflows.get('apply.yml') as Workflow;
    expect(w.on).toMatchObject({ push: { branches: ['main'] } });
    expect(w.concurrency).toEqual({ group: 'switchboard-apply', 'cancel-in-progress': false });
    expect(w.permissions).toEqual({});
    expect(w.jobs['plan']?.permissions).toEqual({ contents: 'read', 'pull-requests': 'read', actions: 'read' });
    expect(w.jobs['apply']?.permissions).toEqual({ contents: 'write', actions: 'read' });
    // The reviewed plan, found through the API, is downloaded from the plan workflow's run only to show a difference.
    const download = findStep(w, 'plan', 'Download the reviewed plan');
    expect(download.with).toMatchObject({ 'run-id': '${{ steps.review.outputs.plan_run }}', path: 'reviewed-plan' });
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
