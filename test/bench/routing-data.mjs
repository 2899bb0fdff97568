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
