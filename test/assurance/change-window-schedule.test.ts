/**
 * The change-window schedule on fixed instants: wall-clock windows in a named zone across
 * both daylight-saving changes of Europe/Brussels (2026-03-29 and 2026-10-25), a window that
 * spans midnight, freezes, and the next opening.
 */
import { describe, expect, it } from 'vitest';
import {
  instantOf,
  isOpen,
  nextOpening,
  parseFreeze,
  parseWindow,
  wallMinute,
  type Schedule,
  type WeeklyWindow,
} from '../../src/manifest/change-window-schedule.js';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number | undefined): string | undefined => (ms === undefined ? undefined : new Date(ms).toISOString());

function window(text: string, zone = 'Europe/Brussels'): WeeklyWindow {
  const parsed = parseWindow(text, zone);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

describe('weekly windows in Europe/Brussels', () => {
  const nights: Schedule = { windows: [window('Tue,Thu 22:00-02:00')], freezes: [] };

  it('spans midnight: open Tuesday 22:00 to Wednesday 02:00 local, closed before and after', () => {
    // 2026-11-24 is a Tuesday; Brussels is UTC+1 in November.
    expect(isOpen(nights, at('2026-11-24T20:59:00Z'))).toBe(false); // 21:59
    expect(isOpen(nights, at('2026-11-24T21:00:00Z'))).toBe(true); // 22:00
    expect(isOpen(nights, at('2026-11-24T23:30:00Z'))).toBe(true); // Wed 00:30
    expect(isOpen(nights, at('2026-11-25T00:59:00Z'))).toBe(true); // Wed 01:59
    expect(isOpen(nights, at('2026-11-25T01:00:00Z'))).toBe(false); // Wed 02:00
    // Wednesday evening is no opening day, and Monday night's early hours are not Tuesday's.
    expect(isOpen(nights, at('2026-11-25T21:30:00Z'))).toBe(false);
    expect(isOpen(nights, at('2026-11-24T00:30:00Z'))).toBe(false);
  });

  it('says when it next opens, in the zone', () => {
    expect(iso(nextOpening(nights, at('2026-11-24T12:00:00Z')))).toBe('2026-11-24T21:00:00.000Z');
    // After Tuesday's window closed: Thursday 22:00.
    expect(iso(nextOpening(nights, at('2026-11-25T01:00:00Z')))).toBe('2026-11-26T21:00:00.000Z');
    // Open now: now.
    expect(iso(nextOpening(nights, at('2026-11-24T22:00:00Z')))).toBe('2026-11-24T22:00:00.000Z');
  });

  it('keeps local times across the spring change (2026-03-29: 02:00 → 03:00)', () => {
    const sunday = { windows: [window('Sun 01:00-04:00')], freezes: [] };
    expect(isOpen(sunday, at('2026-03-29T00:00:00Z'))).toBe(true); // 01:00 CET
    expect(isOpen(sunday, at('2026-03-29T01:30:00Z'))).toBe(true); // 03:30 CEST
    // 02:30 UTC is 04:30 CEST: closed. A fixed +1 offset would read 03:30 and call it open.
    expect(isOpen(sunday, at('2026-03-29T02:30:00Z'))).toBe(false);
    // The window before it is one hour shorter in real time: 01:00 CET to 04:00 CEST.
    expect(iso(instantOf(wallMinute(at('2026-03-29T02:00:00Z'), 'Europe/Brussels'), 'Europe/Brussels'))).toBe(
      '2026-03-29T02:00:00.000Z',
    );
  });

  it('opens a window whose start is skipped by the spring change at the end of the gap', () => {
    const skipped = { windows: [window('Sun 02:30-05:00')], freezes: [] };
    expect(iso(nextOpening(skipped, at('2026-03-28T12:00:00Z')))).toBe('2026-03-29T01:00:00.000Z'); // 03:00 CEST
    expect(isOpen(skipped, at('2026-03-29T00:59:00Z'))).toBe(false); // 01:59 CET
    expect(isOpen(skipped, at('2026-03-29T01:00:00Z'))).toBe(true); // 03:00 CEST
  });

  it('keeps local times across the autumn change (2026-10-25: 03:00 → 02:00)', () => {
    const sunday = { windows: [window('Sun 02:00-03:00')], freezes: [] };
    // The wall clock shows 02:00-03:00 twice: from 00:00 to 02:00 UTC.
    expect(isOpen(sunday, at('2026-10-24T23:59:00Z'))).toBe(false); // 01:59 CEST
    expect(isOpen(sunday, at('2026-10-25T00:30:00Z'))).toBe(true); // 02:30 CEST
    expect(isOpen(sunday, at('2026-10-25T01:30:00Z'))).toBe(true); // 02:30 CET
    expect(isOpen(sunday, at('2026-10-25T02:00:00Z'))).toBe(false); // 03:00 CET
    // It opens at the first 02:00.
    expect(iso(nextOpening(sunday, at('2026-10-24T12:00:00Z')))).toBe('2026-10-25T00:00:00.000Z');
  });

  it('says it next opens when the clock goes back into a window, not a week later', () => {
    // Closed from 02:30 CEST (00:30 UTC); at 03:00 CEST the clock goes back to 02:00 CET, inside it again.
    const saturday = { windows: [window('Sat 22:00-02:30')], freezes: [] };
    expect(isOpen(saturday, at('2026-10-25T00:45:00Z'))).toBe(false); // 02:45 CEST
    expect(iso(nextOpening(saturday, at('2026-10-25T00:45:00Z')))).toBe('2026-10-25T01:00:00.000Z'); // 02:00 CET
    expect(isOpen(saturday, at('2026-10-25T01:10:00Z'))).toBe(true); // 02:10 CET
    expect(iso(nextOpening(saturday, at('2026-10-25T01:30:00Z')))).toBe('2026-10-31T21:00:00.000Z'); // 02:30 CET: closed
  });

  it('says it next opens at the second showing of a start in the repeated hour', () => {
    const sunday = { windows: [window('Sun 02:15-02:45')], freezes: [] };
    expect(iso(nextOpening(sunday, at('2026-10-25T00:50:00Z')))).toBe('2026-10-25T01:15:00.000Z'); // 02:15 CET
  });

  it('does not open a window wholly inside the hour the spring change skips', () => {
    const skipped = { windows: [window('Sun 02:10-02:40')], freezes: [] };
    expect(isOpen(skipped, at('2026-03-29T01:00:00Z'))).toBe(false); // 03:00 CEST
    expect(iso(nextOpening(skipped, at('2026-03-28T12:00:00Z')))).toBe('2026-04-05T00:10:00.000Z');
  });

  it('opens on the other side of a daylight-saving change at the new offset', () => {
    // Saturday 2026-10-24 22:00 is 20:00 UTC (CEST); Saturday 2026-10-31 22:00 is 21:00 UTC (CET).
    const saturday = { windows: [window('Sat 22:00-23:00')], freezes: [] };
    expect(iso(nextOpening(saturday, at('2026-10-24T12:00:00Z')))).toBe('2026-10-24T20:00:00.000Z');
    expect(iso(nextOpening(saturday, at('2026-10-24T21:00:00Z')))).toBe('2026-10-31T21:00:00.000Z');
  });

  it('reads another zone named in the window', () => {
    const ny = { windows: [window('Mon-Fri 09:00-17:00 America/New_York')], freezes: [] };
    expect(isOpen(ny, at('2026-11-24T14:00:00Z'))).toBe(true); // 09:00 EST
    expect(isOpen(ny, at('2026-11-24T13:59:00Z'))).toBe(false);
    expect(isOpen(ny, at('2026-11-28T15:00:00Z'))).toBe(false); // Saturday
  });
});

describe('freezes', () => {
  const zone = 'Europe/Brussels';
  const freeze = parseFreeze('2026-12-20', '2027-01-03', zone, 'year-end');
  if (typeof freeze === 'string') throw new Error(freeze);

  it('close a schedule without weekly windows only while they last, both days included', () => {
    const schedule = { windows: [], freezes: [freeze] };
    expect(isOpen(schedule, at('2026-12-19T22:59:00Z'))).toBe(true); // 23:59 on the 19th
    expect(isOpen(schedule, at('2026-12-19T23:00:00Z'))).toBe(false); // 00:00 on the 20th
    expect(isOpen(schedule, at('2027-01-03T22:59:00Z'))).toBe(false); // 23:59 on the 3rd
    expect(iso(nextOpening(schedule, at('2026-12-25T12:00:00Z')))).toBe('2027-01-03T23:00:00.000Z');
  });

  it('close the weekly windows they cover: the next opening is the first window after the freeze', () => {
    const schedule = { windows: [window('Tue,Thu 22:00-02:00')], freezes: [freeze] };
    // Tuesday 2026-12-22 22:00 is frozen; the first window after the freeze is Tuesday 2027-01-05.
    expect(isOpen(schedule, at('2026-12-22T21:30:00Z'))).toBe(false);
    expect(iso(nextOpening(schedule, at('2026-12-21T12:00:00Z')))).toBe('2027-01-05T21:00:00.000Z');
  });

  it('end in the middle of a window: it opens when the freeze ends', () => {
    const short = parseFreeze('2026-11-24T20:00', '2026-11-24T23:00', zone);
    if (typeof short === 'string') throw new Error(short);
    const schedule = { windows: [window('Tue 21:00-23:30')], freezes: [short] };
    expect(iso(nextOpening(schedule, at('2026-11-24T12:00:00Z')))).toBe('2026-11-24T22:00:00.000Z'); // 23:00 local
  });

  it('are one stretch of time: a start in the repeated hour is its first showing, and holds after the clock goes back', () => {
    const from = parseFreeze('2026-10-25T02:30', '2026-10-26', zone);
    if (typeof from === 'string') throw new Error(from);
    const frozen = { windows: [], freezes: [from] };
    expect(isOpen(frozen, at('2026-10-25T00:29:00Z'))).toBe(true); // 02:29 CEST
    expect(isOpen(frozen, at('2026-10-25T00:30:00Z'))).toBe(false); // 02:30 CEST
    expect(isOpen(frozen, at('2026-10-25T01:10:00Z'))).toBe(false); // 02:10 CET: a wall clock would read it before
  });

  it('are one stretch of time: an end in the repeated hour is its first showing, never frozen again', () => {
    const to = parseFreeze('2026-10-24', '2026-10-25T02:30', zone);
    if (typeof to === 'string') throw new Error(to);
    const frozen = { windows: [], freezes: [to] };
    expect(isOpen(frozen, at('2026-10-25T00:29:00Z'))).toBe(false); // 02:29 CEST
    expect(isOpen(frozen, at('2026-10-25T00:30:00Z'))).toBe(true); // 02:30 CEST
    expect(isOpen(frozen, at('2026-10-25T01:10:00Z'))).toBe(true); // 02:10 CET
    expect(iso(nextOpening(frozen, at('2026-10-24T12:00:00Z')))).toBe('2026-10-25T00:30:00.000Z');
  });

  it('a start or end in the hour the spring change skips is the end of the gap; a freeze wholly in it is refused', () => {
    const from = parseFreeze('2026-03-29T02:30', '2026-03-29T05:00', zone);
    const to = parseFreeze('2026-03-28', '2026-03-29T02:30', zone);
    if (typeof from === 'string' || typeof to === 'string') throw new Error('not a freeze');
    expect(isOpen({ windows: [], freezes: [from] }, at('2026-03-29T00:59:00Z'))).toBe(true); // 01:59 CET
    expect(isOpen({ windows: [], freezes: [from] }, at('2026-03-29T01:00:00Z'))).toBe(false); // 03:00 CEST
    expect(isOpen({ windows: [], freezes: [to] }, at('2026-03-29T00:59:00Z'))).toBe(false);
    expect(iso(nextOpening({ windows: [], freezes: [to] }, at('2026-03-28T12:00:00Z')))).toBe(
      '2026-03-29T01:00:00.000Z',
    );
    expect(parseFreeze('2026-03-29T02:10', '2026-03-29T02:40', zone)).toMatch(/lies in the hour the clock skips/);
  });

  it('a schedule that never opens within the look-ahead has no next opening', () => {
    const long = parseFreeze('2026-01-01', '2030-01-01', zone);
    if (typeof long === 'string') throw new Error(long);
    expect(nextOpening({ windows: [], freezes: [long] }, at('2026-06-01T00:00:00Z'))).toBeUndefined();
  });
});

describe('parsing', () => {
  it('reads days, ranges and times', () => {
    expect(window('Mon-Fri 20:00-06:00')).toMatchObject({ days: [1, 2, 3, 4, 5], start: 1200, end: 360 });
    expect(window('Fri-Mon 00:00-24:00')).toMatchObject({ days: [0, 1, 5, 6], start: 0, end: 1440 });
    expect(window('sat, sun 08:00-12:00')).toMatchObject({ days: [0, 6], start: 480, end: 720 });
  });

  it('an end at the start closes 24 hours later, the next day', () => {
    const day = { windows: [window('Mon 22:00-22:00', 'UTC')], freezes: [] };
    // 2026-11-23 is a Monday.
    expect(isOpen(day, at('2026-11-23T21:59:00Z'))).toBe(false);
    expect(isOpen(day, at('2026-11-23T22:00:00Z'))).toBe(true);
    expect(isOpen(day, at('2026-11-24T21:59:00Z'))).toBe(true);
    expect(isOpen(day, at('2026-11-24T22:00:00Z'))).toBe(false);
    expect(window('Mon 00:00-00:00', 'UTC')).toMatchObject({ start: 0, end: 0 });
  });

  it('says what is wrong', () => {
    expect(parseWindow('Tue 22:00', 'UTC')).toMatch(/not a weekly window/);
    expect(parseWindow('Tues 22:00-23:00', 'UTC')).toBe(
      '"Tues" is not a day or a range of days (Mon, Tue, Wed, Thu, Fri, Sat, Sun; Mon-Fri)',
    );
    expect(parseWindow('Tue 25:00-23:00', 'UTC')).toMatch(/times are HH:MM/);
    expect(parseWindow('Tue 22:00-23:00 Europe/Bruxelles', 'UTC')).toMatch(/"Europe\/Bruxelles" is not a time zone/);
    expect(parseFreeze('2026-02-30', '2026-03-01', 'UTC')).toMatch(/not a date/);
    expect(parseFreeze('2026-03-02', '2026-03-01', 'UTC')).toMatch(/ends .* before it starts/);
  });
});
