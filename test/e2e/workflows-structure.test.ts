/**
 * The example GitHub workflows (examples/.github/workflows/) as GitHub Actions reads them,
 * and what makes them safe to copy: where credentials are, what runs next to them, how
 * actions are pinned, which shell runs the blocks.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, WORKFLOWS, findStep, loadWorkflow, type Workflow } from './workflows/harness.js';

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
  const secretsOf = (w: Workflow): string[] =>
    [...JSON.stringify(w).matchAll(/secrets\.([A-Za-z_]+)/g)].map((m) => m[1] ?? '');

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

  it('plan.yml and drift.yml hold read-only credentials only; the apply credentials appear in apply.yml alone', () => {
    for (const file of ['plan.yml', 'drift.yml']) {
      const names = secretsOf(workflows.get(file) as Workflow);
      expect(names.filter((n) => READONLY_SECRETS.test(n)).length, file).toBeGreaterThan(0);
      for (const name of names)
        expect(LOCATION_SECRETS.includes(name) || READONLY_SECRETS.test(name), `${file}: ${name}`).toBe(true);
    }
    const names = secretsOf(workflows.get('apply.yml') as Workflow);
    for (const name of names)
      expect(LOCATION_SECRETS.includes(name) || APPLY_SECRETS.test(name), `apply.yml: ${name}`).toBe(true);
    // Each variable switchboard reads gets the secret of its own name in apply.yml, the read-only one elsewhere.
    for (const file of FILES) {
      for (const step of Object.values((workflows.get(file) as Workflow).jobs).flatMap((j) => j.steps)) {
        for (const [key, value] of Object.entries(step.env ?? {})) {
          if (!/^SWITCHBOARD_/.test(key)) continue;
          const secret =
            LOCATION_SECRETS.includes(key) || file === 'apply.yml'
              ? key
              : key.replace(/^SWITCHBOARD_(RE_)?/, 'SWITCHBOARD_$1READONLY_');
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

  it('plan.yml: on pull_request, writes the PR comment only, uploads the plan named by the head commit', () => {
    const w = workflows.get('plan.yml') as Workflow;
    expect(Object.keys(w.on)).toEqual(['pull_request']);
    expect(w.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    const plan = findStep(w, 'plan', 'plan');
    expect(plan.run).toMatch(
      /switchboard plan "\$MANIFESTS" .*--changed-since "\$BASE_SHA" --no-check-permissions --detailed-exitcode --out plan\.json --format markdown > plan\.md/,
    );
    // Scoped to the pull request's changes, against the base commit the job checked out.
    expect(plan.env?.['BASE_SHA']).toBe('${{ github.event.pull_request.base.sha }}');
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
