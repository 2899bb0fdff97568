/**
 * Numbers on the command line. `Number()` reads far more than a person means: '' and ' ' are
 * 0, '0x10' is 16, '1e2' is 100, 'Infinity' is a number. An option's value is a plain decimal
 * ('30', '2.5', '.5') or a usage error.
 */
const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** The value as a non-negative decimal number, or undefined when it is not written as one. */
export function decimal(value: string): number | undefined {
  return DECIMAL.test(value) ? Number(value) : undefined;
}
