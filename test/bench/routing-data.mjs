/**
 * The benchmark's table, generated the same way on both sides: row i has number
 * +32 followed by i on 9 digits, route trunk-(i % 40), priority i % 10.
 */
export const number = (i) => `+32${String(i).padStart(9, '0')}`;
export const route = (i) => `trunk-${i % 40}`;
export const priority = (i) => i % 10;
export const fields = {
  number: { type: 'string', unique: true, nullable: false },
  route: { type: 'string', nullable: false },
  priority: { type: 'integer', nullable: true },
};

/** The 1% drift of the routing benchmark for a live table of `rows` rows. */
export function drift(rows) {
  const changed = Math.round(rows / 100);
  const added = Math.round(rows / 1000);
  return { changed, added, removed: added };
}

/**
 * Desired rows as CSV cells: rows REMOVED..ROWS-1 kept, CHANGED of them re-routed to
 * moved-(i % 8), NEW added after the live ones.
 * @returns {Generator<[string, string, string]>}
 */
export function* desiredRows(rows) {
  const { changed, added, removed } = drift(rows);
  const step = Math.floor((rows - removed) / changed);
  for (let i = removed; i < rows; i++) {
    const moved = (i - removed) % step === 0 && (i - removed) / step < changed;
    yield [number(i), moved ? `moved-${i % 8}` : route(i), String(priority(i))];
  }
  for (let i = rows; i < rows + added; i++) yield [number(i), route(i), String(priority(i))];
}
