/**
 * `npm run soak` runs the same tests with bigger numbers (SB_SOAK=1 and the SB_* sizes in
 * package.json); their time limits grow with them.
 */
export const SOAK = process.env['SB_SOAK'] === '1';

export function timeLimit(ms: number): number {
  return SOAK ? ms * 30 : ms;
}
