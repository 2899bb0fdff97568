/**
 * The schedule of a ChangeWindow document (docs/assurance.md "Change windows"): weekly
 * windows in a named IANA time zone and freezes, read as wall-clock times of that zone.
 * Offsets and daylight-saving changes come from the runtime's ICU (`Intl.DateTimeFormat`),
 * never from a table of our own. Pure: an instant in, an answer out; the clock is the
 * caller's.
 *
 * A "wall minute" is a local date and time of a zone counted as minutes since 1970-01-01
 * 00:00 of that same wall clock (as if the zone were UTC): comparing wall minutes compares
 * local times, whatever the offset that day.
 */

const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
const FULL_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const MINUTES_PER_DAY = 1440;
const DAY_MS = 86_400_000;
/** How far ahead a window's next opening is looked for before it counts as not opening. */
const LOOK_AHEAD_DAYS = 400;

/**
 * A weekly window: it opens on each of `days` at `start` (minute of the day) and closes at
 * `end`, the next day when `end <= start` (`Mon 22:00-22:00` is the 24 hours to Tuesday 22:00).
 */
export interface WeeklyWindow {
  /** As written (`Tue,Thu 22:00-02:00`), for messages. */
  text: string;
  zone: string;
  /** Days it opens on, 0 = Sunday. */
  days: readonly number[];
  start: number;
  end: number;
}

/**
 * A freeze: nothing in scope may change from `start` (inclusive) to `end` (exclusive), instants
 * (ms since the epoch) read once from the wall times written in `zone` ({@link instantOf}): a
 * freeze is one stretch of time, never reopened or closed again by the clock going back.
 */
export interface Freeze {
  text: string;
  zone: string;
  start: number;
  end: number;
  reason?: string;
}

/** When a change window's scope may change: inside one of `windows` (always, when there are none) and in no freeze. */
export interface Schedule {
  windows: readonly WeeklyWindow[];
  freezes: readonly Freeze[];
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether the runtime's ICU knows the IANA zone name (`Europe/Brussels`). */
export function isTimeZone(zone: string): boolean {
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall minute an instant (ms since the epoch) shows in a zone. */
export function wallMinute(instantMs: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatterOf(zone).formatToParts(instantMs)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const { year = 1970, month = 1, day = 1, hour = 0, minute = 0 } = parts;
  const utc = Date.UTC(year, month - 1, day, hour, minute);
  return Math.floor(utc / 60_000);
}

/** Day of the week of a wall minute (0 = Sunday). */
function weekday(wall: number): number {
  return new Date(wall * 60_000).getUTCDay();
}

/** The zone's offset at an instant, in minutes (wall minus UTC). */
function offsetAt(instantMs: number, zone: string): number {
  return wallMinute(instantMs, zone) - Math.floor(instantMs / 60_000);
}

/**
 * The first instant at which the zone's clock shows `wall`: the earlier one when the clock
 * shows it twice (the hour repeated when summer time ends), and the end of the gap when it
 * never does (the hour skipped when it starts: a window opening at 02:30 opens at 03:00).
 */
export function instantOf(wall: number, zone: string): number {
  return instantsOf(wall, zone)[0] as number;
}

/**
 * Every instant at which the zone's clock shows `wall`, earliest first: two in the repeated
 * hour, else one; for a skipped wall time, the end of the gap alone.
 */
function instantsOf(wall: number, zone: string): number[] {
  const guess = wall * 60_000;
  // The offsets in force around that day: a transition lies between at most two of them.
  const offsets = new Set([
    offsetAt(guess, zone),
    offsetAt(guess - 86_400_000, zone),
    offsetAt(guess + 86_400_000, zone),
  ]);
  const exact = [...offsets]
    .map((offset) => (wall - offset) * 60_000)
    .filter((instant) => wallMinute(instant, zone) === wall)
    .sort((a, b) => a - b);
  if (exact.length > 0) return exact;
  // A skipped wall time: the first minute whose wall time is past it.
  let lo = (wall - Math.max(...offsets)) * 60_000;
  let hi = (wall - Math.min(...offsets)) * 60_000;
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
    if (wallMinute(mid, zone) >= wall) hi = mid;
    else lo = mid;
  }
  return [hi];
}

/**
 * The instants in [`fromMs`, `toMs`) at which the zone's offset changes (the clock jumps
 * forward or back), whole minutes: a window may open there without its start being shown.
 */
function offsetChanges(zone: string, fromMs: number, toMs: number): number[] {
  const found: number[] = [];
  // No zone changes its offset twice within a day: compare day by day, then narrow down.
  for (let day = Math.floor(fromMs / 86_400_000) * 86_400_000; day < toMs; day += 86_400_000) {
    const before = offsetAt(day, zone);
    if (offsetAt(day + 86_400_000, zone) === before) continue;
    let lo = day;
    let hi = day + 86_400_000;
    while (hi - lo > 60_000) {
      const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
      if (offsetAt(mid, zone) === before) lo = mid;
      else hi = mid;
    }
    if (hi >= fromMs && hi < toMs) found.push(hi);
  }
  return found;
}

/** Whether a weekly window is open at an instant. */
function windowOpen(window: WeeklyWindow, instantMs: number): boolean {
  const wall = wallMinute(instantMs, window.zone);
  const minute = ((wall % MINUTES_PER_DAY) + MINUTES_PER_DAY) % MINUTES_PER_DAY;
  const day = weekday(wall);
  if (window.start < window.end) return window.days.includes(day) && minute >= window.start && minute < window.end;
  // Spanning midnight: the evening of an opening day, or the early hours of the day after.
  return (
    (window.days.includes(day) && minute >= window.start) ||
    (window.days.includes((day + 6) % 7) && minute < window.end)
  );
}

/** The freeze in force at an instant, if any. */
export function freezeAt(freezes: readonly Freeze[], instantMs: number): Freeze | undefined {
  return freezes.find((f) => instantMs >= f.start && instantMs < f.end);
}

/** Whether the schedule lets its scope change at an instant. */
export function isOpen(schedule: Schedule, instantMs: number): boolean {
  if (freezeAt(schedule.freezes, instantMs)) return false;
  return schedule.windows.length === 0 || schedule.windows.some((w) => windowOpen(w, instantMs));
}

/**
 * The first instant at or after `instantMs` at which the schedule is open; undefined when it
 * does not open within {@link LOOK_AHEAD_DAYS} days (a freeze longer than that, say). A closed
 * schedule opens only where one of these happens, so they are the candidates: a window's
 * start shows on its zone's clock (each time: twice in the repeated hour), its zone's clock
 * jumps (back into a window, or forward past a skipped start), or a freeze ends.
 */
export function nextOpening(schedule: Schedule, instantMs: number): number | undefined {
  if (isOpen(schedule, instantMs)) return instantMs;
  const horizon = instantMs + LOOK_AHEAD_DAYS * DAY_MS;
  const showings = new Map<string, number[]>();
  // A day at a time, so that a schedule opening soon is answered without the whole look-ahead;
  // nothing opens inside a freeze, so a freeze is skipped to its end (itself a candidate).
  for (let from = instantMs, to = from; from < horizon; from = to) {
    const freeze = freezeAt(schedule.freezes, from);
    if (freeze) {
      to = freeze.end;
      continue;
    }
    to = Math.min(from + DAY_MS, horizon);
    const candidates = new Set<number>();
    for (const f of schedule.freezes) candidates.add(f.end);
    for (const zone of new Set(schedule.windows.map((w) => w.zone)))
      for (const jump of offsetChanges(zone, from, to)) candidates.add(jump);
    for (const w of schedule.windows) {
      // The window's days whose start may show in [from, to): the day before through the day after.
      const first = Math.floor(wallMinute(from, w.zone) / MINUTES_PER_DAY) - 1;
      for (let day = first; day <= first + 3; day++) {
        if (!w.days.includes(weekday(day * MINUTES_PER_DAY))) continue;
        const key = `${w.zone} ${day * MINUTES_PER_DAY + w.start}`;
        let at = showings.get(key);
        if (!at) showings.set(key, (at = instantsOf(day * MINUTES_PER_DAY + w.start, w.zone)));
        for (const instant of at) candidates.add(instant);
      }
    }
    const ordered = [...candidates].filter((c) => c > instantMs && c >= from && c < to).sort((a, b) => a - b);
    const open = ordered.find((candidate) => isOpen(schedule, candidate));
    if (open !== undefined) return open;
  }
  return undefined;
}

/** `2026-11-24 22:00` in a zone. */
export function localText(instantMs: number, zone: string): string {
  return wallText(wallMinute(instantMs, zone));
}

/** A wall minute as `2026-11-24 22:00`. */
function wallText(wall: number): string {
  return new Date(wall * 60_000).toISOString().slice(0, 16).replace('T', ' ');
}

/** `Tue,Thu 22:00-02:00`, `Mon-Fri 20:00-06:00 Europe/Brussels`: a weekly window, or why it is not one. */
export function parseWindow(text: string, defaultZone: string): WeeklyWindow | string {
  const m = /^\s*([A-Za-z,\- ]+?)\s+(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})(?:\s+(\S+))?\s*$/.exec(text);
  if (!m) return `"${text}" is not a weekly window: write days, then HH:MM-HH:MM, e.g. "Tue,Thu 22:00-02:00"`;
  const days = parseDays(m[1] as string);
  if (typeof days === 'string') return days;
  const start = minuteOfDay(m[2] as string, false);
  const end = minuteOfDay(m[3] as string, true);
  if (start === undefined || end === undefined)
    return `"${text}": times are HH:MM from 00:00 to 23:59 (24:00 may end a window)`;
  const zone = m[4] ?? defaultZone;
  if (!isTimeZone(zone)) return `"${zone}" is not a time zone the runtime knows (an IANA name such as Europe/Brussels)`;
  return { text: text.trim(), zone, days, start, end };
}

function parseDays(text: string): number[] | string {
  const days = new Set<number>();
  for (const part of text.split(',').map((p) => p.trim())) {
    const [from = '', to, ...rest] = part.split('-').map((d) => d.trim());
    const a = dayOf(from);
    const b = to === undefined ? a : dayOf(to);
    if (a < 0 || b < 0 || rest.length > 0 || part === '')
      return `"${part}" is not a day or a range of days (Mon, Tue, Wed, Thu, Fri, Sat, Sun; Mon-Fri)`;
    for (let d = a; ; d = (d + 1) % 7) {
      days.add(d);
      if (d === b) break;
    }
  }
  return [...days].sort((x, y) => x - y);
}

/** `Tue` or `Tuesday`, in any case: 0 = Sunday, -1 when it is no day. */
function dayOf(text: string): number {
  const lower = text.toLowerCase();
  return DAYS.findIndex((d, i) => lower === d || lower === FULL_DAYS[i]);
}

function minuteOfDay(text: string, mayBeEnd: boolean): number | undefined {
  const [h, m] = text.split(':').map(Number) as [number, number];
  if (h === 24 && m === 0 && mayBeEnd) return MINUTES_PER_DAY;
  if (!(h >= 0 && h < 24 && m >= 0 && m < 60)) return undefined;
  return h * 60 + m;
}

/**
 * A freeze from `YYYY-MM-DD` (that day's start) or `YYYY-MM-DDTHH:MM` to `YYYY-MM-DD` (that
 * day's end: the day is frozen) or `YYYY-MM-DDTHH:MM` (exclusive), in the zone's wall clock,
 * each read once as an instant by {@link instantOf}: a time the clock shows twice (the hour
 * repeated when summer time ends) is its first showing, a time it skips is the end of the gap.
 */
export function parseFreeze(from: string, to: string, zone: string, reason?: string): Freeze | string {
  const startWall = wallOf(from, false);
  const endWall = wallOf(to, true);
  if (startWall === undefined) return `"${from}" is not a date (YYYY-MM-DD) or a date and time (YYYY-MM-DDTHH:MM)`;
  if (endWall === undefined) return `"${to}" is not a date (YYYY-MM-DD) or a date and time (YYYY-MM-DDTHH:MM)`;
  if (endWall <= startWall) return `the freeze ends (${to}) before it starts (${from})`;
  const start = instantOf(startWall, zone);
  const end = instantOf(endWall, zone);
  if (end <= start)
    return `the freeze from ${from} to ${to} lies in the hour the clock skips in ${zone} (summer time starts): it lasts no time`;
  return { text: `${from} to ${to}`, zone, start, end, ...(reason !== undefined ? { reason } : {}) };
}

function wallOf(text: string, endOfDay: boolean): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?$/.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d, m[4] === undefined ? 0 : Number(m[4]), m[5] === undefined ? 0 : Number(m[5]));
  const check = new Date(ms);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return undefined;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59)) return undefined;
  const wall = ms / 60_000;
  return m[4] === undefined && endOfDay ? wall + MINUTES_PER_DAY : wall;
}
