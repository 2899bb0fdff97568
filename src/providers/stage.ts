/** What an earlier step of a provider produced; calling a step before it is a programming error. */
export function stage<T>(value: T | undefined, step: string, before: string): T {
  if (value === undefined) throw new Error(`provider ${step}() called before ${before}()`);
  return value;
}
