/**
 * Runs the `run:` blocks of the example GitHub workflows outside GitHub: the real workflow
 * text (parsed with the yaml package), the env GitHub would give the step (workflow, job and
 * step `env:`, with `${{ … }}` expressions resolved from a context the test supplies), the
 * shell as GitHub runs it for the step's `shell:` (its own, the job's or the workflow's
 * `defaults.run.shell`, else GitHub's default), a fake `gh` and `npx` (bin/) first on PATH, and
 * GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files read back.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { interpolate } from './expressions.js';
import { testCacheHome } from '../cli-helpers.js';

export const REPO_ROOT = resolve(import.meta.dirname, '../../..');
/** In a dot folder: the manifest loader skips it, so `validate examples/` never reads a workflow as a manifest. */
export const WORKFLOWS = join(REPO_ROOT, 'examples/.github/workflows');
const FAKE_BIN = join(import.meta.dirname, 'bin');

export interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  shell?: string;
  'continue-on-error'?: boolean;
}

export interface Defaults {
  run?: { shell?: string; 'working-directory'?: string };
}

export interface Job {
  'runs-on': string;
  steps: Step[];
  if?: string;
  needs?: string | string[];
  outputs?: Record<string, string>;
  environment?: string | { name: string; url?: string };
  env?: Record<string, string>;
  defaults?: Defaults;
  permissions?: Record<string, string>;
  'timeout-minutes'?: number;
}

export interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  concurrency?: { group: string; 'cancel-in-progress'?: boolean };
  env?: Record<string, string>;
  defaults?: Defaults;
  jobs: Record<string, Job>;
}

export async function loadWorkflow(file: string): Promise<Workflow> {
  return parse(await readFile(join(WORKFLOWS, file), 'utf8')) as Workflow;
}

/**
 * The command GitHub runs a `run:` block with on a Linux runner (the workflow syntax's
 * "defaults.run.shell" and "jobs.<id>.steps[*].shell"): without a shell, `bash -e {0}`,
 * which ignores a failure on the left of a pipe; `shell: bash`,
 * `bash --noprofile --norc -eo pipefail {0}`; `shell: sh`, `sh -e {0}`.
 */
function shellCommand(workflow: Workflow, job: Job, step: Step, script: string): string[] {
  const shell = step.shell ?? job.defaults?.run?.shell ?? workflow.defaults?.run?.shell;
  if (shell === undefined) return ['bash', '-e', script];
  if (shell === 'bash') return ['bash', '--noprofile', '--norc', '-eo', 'pipefail', script];
  if (shell === 'sh') return ['sh', '-e', script];
  throw new Error(`shell not supported by the test harness: ${shell}`);
}

/** The expression contexts a step may read: `secrets`, `github`, `steps`, `runner`, `needs` (and `env`). */
export interface ExpressionContext {
  secrets: Record<string, string>;
  github: Record<string, unknown>;
  steps: Record<string, { outputs: Record<string, string>; outcome?: string; conclusion?: string }>;
  runner: Record<string, string>;
  needs?: Record<string, { outputs: Record<string, string>; result: string }>;
}

/**
 * Replaces each `${{ … }}` of `text` with its value (expressions.ts: GitHub's semantics for
 * the operators and functions the templates use; a missing value is the empty string).
 */
function evaluate(text: string, context: ExpressionContext & { env: Record<string, string> }): string {
  return interpolate(text, { needs: {}, ...context });
}

export interface StepResult {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** A workspace: a checkout with switchboard installed the way `npm ci` would (node_modules/.bin). */
export async function makeWorkspace(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-gha-'));
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'platform-manifests', private: true, devDependencies: { switchboard: '0.1.0' } }),
  );
  await mkdir(join(dir, 'node_modules/.bin'), { recursive: true });
  await symlink(REPO_ROOT, join(dir, 'node_modules/switchboard'));
  await symlink('../switchboard/dist/cli/main.js', join(dir, 'node_modules/.bin/switchboard'));
  return dir;
}

export interface RunOptions {
  workflow: Workflow;
  job: string;
  step: string;
  cwd: string;
  context: ExpressionContext;
  /** GITHUB_* variables (repository, sha, run id, …) and anything else the runner sets. */
  runnerEnv: Record<string, string>;
  /** A folder of programs found first on PATH, before the fake `gh` (a failing `npx`, …). */
  binFirst?: string;
}

export function findStep(workflow: Workflow, job: string, name: string): Step {
  const step = workflow.jobs[job]?.steps.find((s) => s.name === name || s.id === name);
  if (!step) throw new Error(`no step "${name}" in job ${job}`);
  return step;
}

/** Runs one `run:` step; records its outputs in `context.steps[id]` like GitHub does. */
export async function runStep(options: RunOptions): Promise<StepResult> {
  const { workflow, context } = options;
  const job = workflow.jobs[options.job];
  if (!job) throw new Error(`no job ${options.job}`);
  const step = findStep(workflow, options.job, options.step);
  if (step.run === undefined) throw new Error(`step "${options.step}" has no run block`);
  const files = await mkdtemp(join(tmpdir(), 'switchboard-gha-step-'));
  const outputFile = join(files, 'output');
  const summaryFile = join(files, 'summary');
  const script = join(files, 'step.sh');
  await writeFile(outputFile, '');
  await writeFile(summaryFile, '');
  await writeFile(script, step.run);
  let env: Record<string, string> = {};
  for (const layer of [workflow.env, job.env, step.env]) {
    for (const [key, value] of Object.entries(layer ?? {})) env[key] = evaluate(String(value), { ...context, env });
  }
  env = {
    PATH: [options.binFirst, FAKE_BIN, process.env['PATH'] ?? ''].filter(Boolean).join(':'),
    HOME: process.env['HOME'] ?? tmpdir(),
    // The manifest cache's user key: never in the real home.
    XDG_CACHE_HOME: testCacheHome(),
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    ...options.runnerEnv,
    ...env,
  };
  const { code, stdout, stderr } = await spawnShell(shellCommand(workflow, job, step, script), options.cwd, env);
  const outputs = parseOutputs(await readFile(outputFile, 'utf8'));
  const outcome = code === 0 ? 'success' : 'failure';
  const conclusion = step['continue-on-error'] === true ? 'success' : outcome;
  if (step.id) context.steps[step.id] = { outputs, outcome, conclusion };
  return { code, stdout, stderr, outputs, summary: await readFile(summaryFile, 'utf8') };
}

function spawnShell(
  command: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const [program = 'bash', ...args] = command;
    const child = spawn(program, args, { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
  });
}

/** `key=value` lines and `key<<DELIM` … `DELIM` blocks, as GitHub reads GITHUB_OUTPUT. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc?.[1] && heredoc[2]) {
      const body: string[] = [];
      while (++i < lines.length && lines[i] !== heredoc[2]) body.push(lines[i] ?? '');
      outputs[heredoc[1]] = body.join('\n');
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return outputs;
}

/** A pull request as `commits/{sha}/pulls` lists it (the members the workflows read). */
export interface FakePull {
  number: number;
  merged_at: string | null;
  merge_commit_sha: string | null;
  base: { ref: string };
  head: { sha: string };
}

/** A workflow run as `actions/runs` lists it. */
export interface FakeRun {
  id: number;
  path: string;
  event: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  created_at: string;
}

/** An approval as `actions/runs/{id}/approvals` lists it. */
export interface FakeApproval {
  state: 'approved' | 'rejected';
  environments: { name: string }[];
  user: { login: string };
  comment: string;
}

/**
 * The fake gh's data: comments (a comment posted through the fake gh is by
 * github-actions[bot], whose token the workflows use), issues, pull requests by commit,
 * workflow runs, their artifacts and approvals, and every call made.
 */
export interface FakeGitHub {
  repository: string;
  nextId: number;
  comments: { id: number; issue: number; body: string; user?: { login: string } }[];
  issues: { number: number; title: string; body: string; state: string; labels: { name: string }[] }[];
  pulls: Record<string, FakePull[]>;
  runs: FakeRun[];
  artifacts: { id: number; name: string; expired: boolean; workflow_run: { id: number; head_sha?: string } }[];
  approvals: Record<string, FakeApproval[]>;
  calls: { method: string; endpoint: string; fields: Record<string, unknown> }[];
}

export async function fakeGitHub(file: string, seed: Partial<FakeGitHub> = {}): Promise<void> {
  const state: FakeGitHub = {
    repository: 'acme/platform',
    nextId: 100,
    comments: [],
    issues: [],
    pulls: {},
    runs: [],
    artifacts: [],
    approvals: {},
    calls: [],
    ...seed,
  };
  await writeFile(file, JSON.stringify(state));
}

export async function readFakeGitHub(file: string): Promise<FakeGitHub> {
  return JSON.parse(await readFile(file, 'utf8')) as FakeGitHub;
}

/** Changes the fake gh's data in place (what GitHub records besides the workflows' own calls). */
export async function updateFakeGitHub(file: string, change: (state: FakeGitHub) => void): Promise<void> {
  const state = await readFakeGitHub(file);
  change(state);
  await writeFile(file, JSON.stringify(state, null, 2));
}
