/**
 * A count as the messages write it: digits grouped by three with commas (`12,000`), what
 * `toLocaleString('en-US')` prints for a whole number. Not through Intl: its first call loads
 * ICU's number formats, 13-20 ms of a run that prints one summary line (`validate`'s).
 */
export function countText(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = '';
  for (let end = digits.length; end > 0; end -= 3) {
    const group = digits.slice(Math.max(0, end - 3), end);
    out = out === '' ? group : `${group},${out}`;
  }
  return n < 0 || Object.is(n, -0) ? `-${out}` : out;
}
