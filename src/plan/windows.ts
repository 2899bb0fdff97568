/**
 * Change windows over a plan's changes (docs/assurance.md "Change windows"): which changes
 * each ChangeWindow document covers, whether it is open at a given instant, and when it
 * next opens. `plan` shows it (`applies only inside window X (next opens …)`); `apply`
 * refuses the changes that are outside every window covering them (SB_CHANGE_WINDOW, exit 3)
 * unless `--emergency-change TICKET`. A window's freeze closes its scope whatever other
 * windows say. Pure: the instant is the caller's clock.
 */
import { FormerNames } from './former-names.js';
import { freezeAt, isOpen, localText, nextOpening } from '../manifest/change-window-schedule.js';
import type { ChangeWindow } from '../manifest/index.js';
import { matchesPattern } from './targets.js';
import type { Change, PlanMessage } from './types.js';

/** Addresses of covered changes a notice names; the rest are counted. */
const NAMED = 5;

/** One change window that covers some of a plan's changes, as the plan shows it. */
export interface WindowNotice {
  window: string;
  /** The schedule in words: `Tue,Thu 22:00-02:00 (Europe/Brussels)`, freezes. */
  schedule: string;
  /** The instant it was checked at (the plan's creation, or the apply's clock), ISO 8601. */
  checkedAt: string;
  open: boolean;
  /** The freeze in force at that instant, in words. */
  frozen?: string;
  /** When it next opens, when closed (ISO 8601); absent when it does not within the look-ahead. */
  nextOpens?: string;
  /** The same instant on the window's wall clock: `2026-11-24 22:00 Europe/Brussels`. */
  nextOpensLocal?: string;
  /** How many of the plan's changes it covers, and the first of them. */
  changes: number;
  addresses: string[];
  /** `file:line:col` of the ChangeWindow document. */
  source: string;
}

/** Whether a window's scope covers a change: each criterion given holds. */
export function covers(
  window: ChangeWindow,
  change: Pick<Change, 'address' | 'kind' | 'previousAddress'>,
  former: FormerNames = new FormerNames([]),
): boolean {
  const { addresses, kinds, tables } = window.scope;
  if (kinds.length > 0 && !kinds.includes(change.kind)) return false;
  if (tables.length > 0 && !tables.some((t) => change.address.startsWith(`${t}/`))) return false;
  if (addresses.length > 0) {
    // Its former names too: its own, and the one it had under a renamed ancestor.
    const named = former.of(change);
    if (!addresses.some((p) => named.some((a) => matchesPattern(p, a)))) return false;
  }
  return true;
}

/** What checking a plan's changes against the windows at one instant found. */
export interface WindowCheck {
  notices: WindowNotice[];
  /** Changes outside every window that covers them (or frozen), by the windows that block them. */
  blocked: { windows: WindowNotice[]; changes: Change[] }[];
}

/**
 * Every window that covers some change, at `now`, and the changes it blocks: a change is
 * blocked when a window covering it is frozen, or when windows with weekly openings cover it
 * and none of them is open. `former` names the plan's renames (formerNamesOf): a window
 * written for an old name covers the object and what is below it.
 */
export function checkWindows(
  windows: readonly ChangeWindow[],
  changes: readonly Change[],
  now: number,
  former: FormerNames,
): WindowCheck {
  const notices = windows.map((w) => notice(w, now));
  const groups = new Map<string, { windows: WindowNotice[]; changes: Change[] }>();
  // One pass over the changes (a million routing rows), the windows few.
  for (const change of changes) {
    const covering: number[] = [];
    windows.forEach((w, i) => {
      if (!covers(w, change, former)) return;
      covering.push(i);
      const n = notices[i] as WindowNotice;
      n.changes += 1;
      if (n.addresses.length < NAMED) n.addresses.push(change.address);
    });
    if (covering.length === 0) continue;
    // What blocks it: the frozen windows; else, when no weekly window covering it is open, those.
    const frozen = covering.filter((i) => notices[i]?.frozen !== undefined);
    const weekly = covering.filter((i) => (windows[i]?.windows.length ?? 0) > 0);
    const closed = weekly.length > 0 && !weekly.some((i) => notices[i]?.open);
    const blocking = frozen.length > 0 ? frozen : closed ? weekly : [];
    if (blocking.length === 0) continue;
    const key = blocking.join(',');
    let group = groups.get(key);
    if (!group) {
      group = { windows: blocking.map((i) => notices[i] as WindowNotice), changes: [] };
      groups.set(key, group);
    }
    group.changes.push(change);
  }
  return { notices: notices.filter((n) => n.changes > 0), blocked: [...groups.values()] };
}

/** A window at `now`, covering no change yet. */
function notice(window: ChangeWindow, now: number): WindowNotice {
  const freeze = freezeAt(window.freezes, now);
  const open = isOpen(window, now);
  const next = open ? undefined : nextOpening(window, now);
  return {
    window: window.name,
    schedule: scheduleText(window),
    checkedAt: new Date(now).toISOString(),
    open,
    ...(freeze ? { frozen: `${freeze.text}${freeze.reason ? ` (${freeze.reason})` : ''}` } : {}),
    ...(next === undefined
      ? {}
      : {
          nextOpens: new Date(next).toISOString(),
          nextOpensLocal: `${localText(next, window.timeZone)} ${window.timeZone}`,
        }),
    changes: 0,
    addresses: [],
    source: window.source,
  };
}

/** `Tue,Thu 22:00-02:00 Europe/Brussels; frozen 2026-12-20 to 2027-01-03`. */
function scheduleText(window: ChangeWindow): string {
  const weekly = window.windows.map((w) => `${w.text}${w.text.endsWith(w.zone) ? '' : ` ${w.zone}`}`);
  const parts = [weekly.length > 0 ? weekly.join(', ') : `any time, ${window.timeZone}`];
  if (window.freezes.length > 0) parts.push(`frozen ${window.freezes.map((f) => f.text).join(', ')}`);
  return parts.join('; ');
}

/** When a closed notice's window opens again: `next opens 2026-11-24 22:00 Europe/Brussels (2026-11-24T21:00:00Z)`. */
export function nextOpensText(n: WindowNotice): string {
  if (n.open && !n.frozen) return 'open now';
  const when = n.nextOpens
    ? `next opens ${n.nextOpensLocal ?? ''} (${n.nextOpens.replace(/\.000Z$/, 'Z')})`
    : 'does not open within the next 400 days';
  return n.frozen ? `frozen (${n.frozen}), ${when}` : `closed now, ${when}`;
}

/**
 * The refusals (or, under an emergency change, the warnings) of the blocked changes: one
 * per group of windows, naming them, when each next opens, and some of the changes.
 */
export function windowMessages(check: WindowCheck, emergencyChange?: string): PlanMessage[] {
  return check.blocked.map(({ windows, changes }) => {
    const names = windows.map((w) => `${w.window} (${w.schedule}; ${nextOpensText(w)})`).join(' or ');
    const listed =
      changes
        .slice(0, NAMED)
        .map((c) => c.address)
        .join(', ') + (changes.length > NAMED ? ', …' : '');
    const n = changes.length;
    const plural = windows.length > 1 ? 'change windows' : 'change window';
    const what = `${n} ${n === 1 ? 'change applies' : 'changes apply'} only inside ${plural} ${names}`;
    const at = (windows[0]?.checkedAt ?? '').replace(/\.\d{3}Z$/, 'Z');
    const message = emergencyChange
      ? `applied at ${at} under emergency change ${emergencyChange}, outside its window: ${what}: ${listed}`
      : `${what}; it is ${at} now: ${listed}. Apply when it opens, or with --emergency-change TICKET`;
    return {
      code: 'SB_CHANGE_WINDOW',
      message,
      ...(n === 1 && changes[0] ? { address: changes[0].address } : {}),
      source: windows[0]?.source ?? '',
    };
  });
}
