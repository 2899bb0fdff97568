/**
 * `switchboard demo`: the whole loop on an embedded simulator, step by step, each step's
 * outcome checked (not just printed): plan examples/ (with its Emergency coverage section)
 * → apply, then verify the RoutingTest vectors in the live engine → plan again ("No
 * changes.") → change one value in a copy → a one-change plan. Any step that misbehaves ends the demo
 * with a DemoStepError (exit 1) naming the step.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathForDisplay } from '../core/display-path.js';
import { SwitchboardError } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import { renderSummary } from '../apply/summary.js';
import { renderText } from '../plan/render-text.js';
import type { Plan } from '../plan/types.js';
import {
  applyRun,
  openSession,
  planRun,
  renderVerification,
  type ConcurrencySetting,
  type PlanRun,
  type PlanRunOptions,
  type Session,
} from '../run/index.js';
import { editedCopy, type DemoEdit } from './edit-copy.js';

/** The value the last step changes: acme-corp's markup, a one-field update. */
const DEMO_EDIT: DemoEdit = {
  file: 'tenants/acme-corp.yaml',
  kind: 'Tenant',
  name: 'acme-corp',
  field: 'markup',
};

export interface DemoOptions {
  /** The manifest folder (the package's examples/ by default). */
  examples: string;
  concurrency: ConcurrencySetting;
  color: boolean;
  logger: Logger;
  out: NodeJS.WritableStream & { isTTY?: boolean };
}

/** A step that did not do what the demo expects (exit 1). */
export class DemoStepError extends SwitchboardError {
  constructor(step: string, message: string) {
    super('SB_DEMO', `demo step "${step}" failed: ${message}`);
    this.name = 'DemoStepError';
  }
}

const STEPS = 5;

export async function runDemo(options: DemoOptions): Promise<void> {
  const begin = performance.now();
  const { out } = options;
  const work = await mkdtemp(join(tmpdir(), 'switchboard-demo-'));
  const shown = pathForDisplay(options.examples);
  let session: Session | undefined;
  const heading = (n: number, title: string) =>
    out.write(`\n${options.color ? '\x1b[1m' : ''}── ${n}/${STEPS}  ${title}${options.color ? '\x1b[0m' : ''}\n\n`);
  const plan = (paths: string[]): Promise<PlanRun> =>
    planRun(paths, planOptions(options, join(work, 'state')), options.logger, session);
  try {
    out.write('switchboard demo: manifests → plan → apply → plan, on a simulator running inside this process.\n');

    heading(1, 'Start the embedded simulator');
    session = await openSession(
      { sim: true, concurrency: options.concurrency, logger: options.logger },
      { platform: true, routing: true },
    );
    out.write(
      `Simulator listening on ${session.target.baseUrl} (instance "${session.target.instance}", the default data set).\n`,
    );

    heading(2, `Plan ${shown}/ against it`);
    const first = await plan([options.examples]);
    out.write(renderText(first.plan, { color: options.color }));
    const firstCount = changeCount(first.plan);
    if (first.plan.errors.length > 0)
      throw new DemoStepError('plan', `the plan was refused: ${first.plan.errors.map((e) => e.code).join(', ')}`);
    if (firstCount === 0) throw new DemoStepError('plan', 'expected changes on a fresh simulator, the plan is empty');

    heading(3, 'Apply it, then verify the routing tests live');
    const applied = await applyRun(first, first.plan.changes, {
      concurrency: options.concurrency,
      failFast: false,
      stateDir: join(work, 'state'),
      runId: `demo-${Date.now().toString(36)}`,
      progressOut: out,
      progressMs: 1_000,
      verify: true,
    });
    // On a terminal the progress line was redrawn in place; in a log, print where it ended.
    if (!out.isTTY) out.write(`${applied.finalProgress.replace(/, ETA \d+ s$/, '')}\n`);
    out.write(renderSummary(applied.result).replace(/^\n/, ''));
    const { result } = applied;
    if (result.failed + result.skipped > 0 || result.applied !== firstCount) {
      throw new DemoStepError(
        'apply',
        `${result.applied} of ${firstCount} changes applied, ${result.failed} failed, ${result.skipped} skipped`,
      );
    }
    // The RoutingTest vectors of examples/, each searched in the engine the apply just wrote.
    const verification = applied.verification;
    if (verification) out.write(renderVerification(verification));
    if (verification && verification.failures.length > 0)
      throw new DemoStepError(
        'verify',
        `${verification.failures.length} RoutingTest vectors did not pass after the apply`,
      );

    heading(4, 'Plan again: nothing is left to do');
    const second = await plan([options.examples]);
    out.write(renderText(second.plan, { color: options.color }));
    if (second.plan.errors.length > 0 || changeCount(second.plan) > 0) {
      throw new DemoStepError(
        'plan again',
        `expected "No changes.", got ${changeCount(second.plan)} changes: ${second.plan.changes
          .slice(0, 5)
          .map((c) => `${c.action} ${c.address}`)
          .join(', ')}`,
      );
    }

    heading(5, 'Change one value in a copy of the manifests, and plan');
    const edit = await editedCopy(options.examples, join(work, 'manifests'), DEMO_EDIT).catch((error: Error) => {
      throw new DemoStepError('change one value', error.message);
    });
    out.write(`In a copy of ${join(shown, DEMO_EDIT.file)}: ${DEMO_EDIT.field}: ${edit.before} → ${edit.after}\n\n`);
    const third = await plan([edit.dir]);
    out.write(renderText(third.plan, { color: options.color }));
    checkOneUpdate(third.plan, `${DEMO_EDIT.kind.toLowerCase()}/${DEMO_EDIT.name}`, DEMO_EDIT.field, edit.after);

    const seconds = ((performance.now() - begin) / 1000).toFixed(1);
    out.write(closing(seconds, firstCount, shown));
  } finally {
    await session?.close();
    await rm(work, { recursive: true, force: true });
  }
}

function planOptions(options: DemoOptions, stateDir: string): PlanRunOptions {
  return {
    target: [],
    exclude: [],
    prune: false,
    concurrency: options.concurrency,
    maxDeletePercent: 10,
    allowReplace: false,
    coverage: true,
    stateDir,
  };
}

function changeCount(plan: Plan): number {
  const s = plan.summary;
  return s.create + s.update + s.replace + s.delete;
}

/** The edited copy must plan exactly one update, of that field, to that value. */
function checkOneUpdate(plan: Plan, address: string, field: string, value: number): void {
  const [only, ...more] = plan.changes;
  const patch = only?.patch ?? [];
  const ok =
    plan.errors.length === 0 &&
    more.length === 0 &&
    only?.action === 'update' &&
    only.address === address &&
    patch.length === 1 &&
    patch[0]?.op === 'replace' &&
    patch[0].path === `/${field}` &&
    patch[0].value === value;
  if (!ok) {
    const got = plan.changes
      .slice(0, 5)
      .map((c) => `${c.action} ${c.address} ${JSON.stringify(c.patch ?? [])}`)
      .join('; ');
    throw new DemoStepError(
      'change one value',
      `expected one update of ${address} (${field} → ${value}), got ${plan.changes.length} changes: ${got || 'none'}`,
    );
  }
}

function closing(seconds: string, planned: number, shown: string): string {
  return `
── Done in ${seconds} s: every step behaved ──

You just saw the whole loop: switchboard read the manifests in ${shown}/, planned
${planned} changes against a live (simulated) platform with their emergency-address
coverage, applied them, checked the routing tables' test vectors in the live engine, found
nothing left to do on the next plan, and turned a one-value edit into a one-change plan.
The simulator lived inside this process: nothing else was changed.

Try next:
  npx switchboard sim                                    # a simulator that stays up (in another terminal)
  npx switchboard plan ${shown} --sim --format markdown   # the plan as a pull-request comment
  npx switchboard coverage examples --sim                 # the emergency-address coverage on its own
  docs/tutorial.md                                        # export, edit, plan, apply, drift: ten minutes
`;
}
