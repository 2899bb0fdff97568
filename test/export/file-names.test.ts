/**
 * The names export gives its files (src/export/files.ts): safe on every file system, unique
 * in a folder whatever the case, and short enough for the temporary name written first
 * (`.<name>.yaml.<pid>.tmp`) to fit a file system's 255 bytes.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileNames } from '../../src/export/files.js';

describe('export file names', () => {
  it('cuts a long name, told apart from another cut alike by its hash', () => {
    const long = 'x'.repeat(300);
    const docs = [
      { folder: 'tenants', name: long },
      { folder: 'tenants', name: `${long}-other` },
      { folder: 'tenants', name: 'acme corp' },
    ];
    const names = [...fileNames('/out', docs).values()].map((f) => path.basename(f));
    expect(names[2]).toBe('acme-corp.yaml');
    for (const name of names.slice(0, 2)) {
      expect(name).toMatch(/^x{120}-[0-9a-f]{8}\.yaml$/);
      expect(`.${name}.4194304.tmp`.length).toBeLessThan(255);
    }
    expect(names[0]).not.toBe(names[1]);
  });
});
