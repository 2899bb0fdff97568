/** The one answer to "is this path inside that folder" (src/core/path-inside.ts). */
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { relativeLeadsInside } from '../../src/core/path-inside.js';

const FOLDER = join(sep, 'work', 'repo');

describe('relativeLeadsInside', () => {
  it.each([
    ['the folder itself', FOLDER],
    ['a file in it', join(FOLDER, 'a.yaml')],
    ['a child named ..data (a ConfigMap volume)', join(FOLDER, '..data', 'a.yaml')],
    ['a child named ..', join(FOLDER, '..2026_11_27')],
    ['a child named ...', join(FOLDER, '...')],
  ])('inside: %s', (_name, target) => {
    expect(relativeLeadsInside(relative(FOLDER, target))).toBe(true);
  });

  it.each([
    ['its parent', join(FOLDER, '..')],
    ['a sibling', join(sep, 'work', 'other', 'a.yaml')],
    ['a sibling whose name starts like it', join(sep, 'work', 'repo-x', 'a.yaml')],
    ['a folder above named ..data', join(sep, 'work', '..data')],
    ['the root of the disk', sep],
  ])('outside: %s', (_name, target) => {
    expect(relativeLeadsInside(relative(FOLDER, target))).toBe(false);
  });

  it('an absolute answer (another drive on Windows) is outside', () => {
    expect(relativeLeadsInside(join(sep, 'elsewhere'))).toBe(false);
  });
});
