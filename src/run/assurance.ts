/**
 * The assurance parts of a plan (docs/assurance.md), gathered by the run layer once the
 * providers planned: the Emergency coverage section (read only when asked), the routing
 * vectors whose answer the plan changes, and the change windows at the run's clock, which
 * an apply enforces.
 */
import { SwitchboardError } from '../core/errors.js';
import type { LoadResult, PolicyRule } from '../manifest/index.js';
import type { CoverageReport } from '../plan/coverage/types.js';
import { formerNamesOf } from '../plan/former-names.js';
import type { PlanPart } from '../plan/part.js';
import type { RunRecord } from '../apply/journal.js';
import type { Plan, PlanMessage } from '../plan/types.js';
import { checkWindows, windowMessages, type WindowCheck } from '../plan/windows.js';
import type { Provider } from '../providers/index.js';
import type { Session } from './session.js';

/** Items a plan's coverage lists hold at most (the counts are whole). */
export const PLAN_COVERAGE_LIST_LIMIT = 100;

/** The environment variable that fixes the clock change windows are read with (tests, demos, rehearsals). */
const NOW_VARIABLE = 'SWITCHBOARD_NOW';

/** The instant a run reads change windows at, and where it came from. */
export interface RunClock {
  now: number;
  source: 'system' | 'simulator' | typeof NOW_VARIABLE;
}

/**
 * The run's clock: `SWITCHBOARD_NOW` (an ISO 8601 instant) when set; else the embedded
 * simulator's (which `POST /_sim/clock` moves) for a `--sim` run; else the system's.
 */
export function runClock(session: Pick<Session, 'simulator'>, env: NodeJS.ProcessEnv = process.env): RunClock {
  const fixed = env[NOW_VARIABLE];
  if (fixed !== undefined && fixed !== '') {
    return { now: instantOf(fixed), source: NOW_VARIABLE };
  }
  const simulator = session.simulator?.core.store.clock;
  return simulator ? { now: simulator.now(), source: 'simulator' } : { now: Date.now(), source: 'system' };
}

/**
 * `SWITCHBOARD_NOW` as an instant: an ISO 8601 date and time with its offset, each field in
 * its range. `Date.parse` alone would read 2026-02-30 as 2026-03-02 and 24:00 as the next day.
 */
function instantOf(text: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):(\d{2}))$/.exec(text);
  const refuse = (why: string) =>
    new SwitchboardError('SB_CONFIG', `${NOW_VARIABLE}="${text}" ${why} (2026-11-24T21:00:00Z)`);
  if (!m) throw refuse('is not an ISO 8601 instant with its offset');
  const [year, month, day, hour, minute, second = 0, offsetHours = 0, offsetMinutes = 0] = m
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  const date = new Date(Date.UTC(year as number, (month as number) - 1, day as number));
  const realDate =
    date.getUTCFullYear() === year && date.getUTCMonth() === (month as number) - 1 && date.getUTCDate() === day;
  if (!realDate) throw refuse(`names no day: ${m[1]}-${m[2]}-${m[3]} is not in the calendar`);
  if ((hour as number) > 23 || (minute as number) > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59)
    throw refuse('has a time or an offset out of range: hours 00-23, minutes and seconds 00-59');
  return Date.parse(text);
}

/** Whether the plan reads coverage: asked for, or a policy rule bounds it. */
export function needsCoverage(asked: boolean, rules: readonly PolicyRule[]): boolean {
  return asked || rules.some((r) => r.check.type === 'coverage');
}

/** The coverage section from the providers that have one (the platform's). */
export async function coverageOf(providers: readonly Provider[], listLimit: number | null): Promise<CoverageReport> {
  const report: CoverageReport = { scopes: [], listLimit };
  for (const provider of providers) {
    const found = await provider.coverage?.(listLimit);
    if (found) report.scopes.push(...found.scopes);
  }
  return report;
}

/** What an apply does with changes outside their window: refuse (or warn under an emergency change). */
export interface WindowEnforcement {
  /** `--emergency-change TICKET`: applied anyway, on the record. */
  emergencyChange?: string;
}

/** The change windows over the plan's changes at `now`: the notices, and the refusals or warnings an apply makes of them. */
export function windowsOf(
  loaded: Pick<LoadResult, 'changeWindows'>,
  parts: readonly PlanPart[],
  now: number,
  enforce: WindowEnforcement | undefined,
): { check: WindowCheck; errors: PlanMessage[]; warnings: PlanMessage[] } {
  // No window declared: nothing to check, and no copy of every part's changes (a million routing rows).
  if (loaded.changeWindows.length === 0) return { check: { notices: [], blocked: [] }, errors: [], warnings: [] };
  const check = checkWindows(
    loaded.changeWindows,
    parts.flatMap((p) => p.changes),
    now,
    formerNamesOf(parts),
  );
  if (!enforce) return { check, errors: [], warnings: [] };
  const messages = windowMessages(check, enforce.emergencyChange);
  return enforce.emergencyChange
    ? { check, errors: [], warnings: messages }
    : { check, errors: messages, warnings: [] };
}

/** The routing vectors of the plan: how many were checked offline, those whose answer it changes, and those it will fail. */
export function routingTestsOf(
  loaded: Pick<LoadResult, 'routingTests' | 'set'>,
  parts: readonly PlanPart[],
): Plan['routingTests'] {
  if (loaded.routingTests.length === 0) return undefined;
  const declared = new Set(loaded.set.routingTables.map((t) => t.table.address));
  const vectors = loaded.routingTests.filter((t) => declared.has(t.table)).reduce((n, t) => n + t.vectors.length, 0);
  const changed = parts.flatMap((p) => p.vectorChanges?.changed ?? []);
  const changedCount = parts.reduce((n, p) => n + (p.vectorChanges?.count ?? 0), 0);
  const failingCount = parts.reduce((n, p) => n + (p.vectorChanges?.failingCount ?? 0), 0);
  // Present only when some vector will fail: a plan whose vectors all pass keeps its file as it was.
  if (failingCount === 0) return { vectors, changed, changedCount };
  const failing = parts.flatMap((p) => p.vectorChanges?.failing ?? []);
  return { vectors, changed, changedCount, failing, failingCount };
}

/**
 * What the journal's run record says of the change windows: the emergency change's ticket
 * and the windows it overrode, and the clock when it was not the system's.
 */
export function windowsRecord(
  clock: RunClock,
  windows: WindowCheck,
  emergencyChange: string | undefined,
): Pick<RunRecord, 'emergencyChange' | 'clock'> {
  const record: Pick<RunRecord, 'emergencyChange' | 'clock'> = {};
  if (emergencyChange !== undefined) {
    const names = [...new Set(windows.blocked.flatMap((b) => b.windows.map((w) => w.window)))].sort();
    const changes = windows.blocked.reduce((n, b) => n + b.changes.length, 0);
    record.emergencyChange = { ticket: emergencyChange, windows: names, changes };
  }
  if (clock.source !== 'system') record.clock = { source: clock.source, at: new Date(clock.now).toISOString() };
  return record;
}
