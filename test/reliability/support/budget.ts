/**
 * `npm test` runs the reliability tests at the smallest size that still proves their property
 * (every fault kind met, every kind of kill point reached); `npm run soak` runs them with
 * bigger numbers (SB_SOAK=1 and the SB_* sizes in package.json), and their time limits grow
 * with them. docs/development.md "Reliability sizes" says what each size proves.
 */
export const SOAK = process.env['SB_SOAK'] === '1';

export function timeLimit(ms: number): number {
  return SOAK ? ms * 30 : ms;
}
