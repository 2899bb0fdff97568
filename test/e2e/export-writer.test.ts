/**
 * The file-writing thread of a large export (src/export/file-writer.ts): the files come out
 * as the main thread writes them, byte for byte, across batches; each file's failure is its
 * own, with the code and message the main thread would have thrown; a thread that cannot
 * start fails every write with SB_EXPORT_WRITER. The thread runs the compiled worker, hence
 * this tier (after the build). A whole export through it: export-stability.test.ts (2,000
 * tenants), export-interrupt.test.ts.
 */
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SwitchboardError } from '../../src/core/errors.js';
import { fileWriter, ThreadWriter, WRITER_THREAD_FROM_FILES } from '../../src/export/file-writer.js';

async function folder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'switchboard-writer-'));
}

/** A text of several lengths and scripts: multi-byte UTF-8 moves every later file's offset. */
function textOf(index: number): string {
  const names = ['Zürich', 'Ελλάδα', '東京', 'emoji 📞', 'plain'];
  return `# file ${index}\nname: ${names[index % names.length]}\n${'x'.repeat(index % 97)}\n`;
}

describe('the export file-writing thread', () => {
  it('writes a thousand files whole, byte for byte, in batches, and closes once they are written', async () => {
    const dir = await folder();
    const writer = new ThreadWriter();
    const count = 1000;
    const done = Array.from({ length: count }, (_, i) => writer.write(join(dir, `f${i}.yaml`), textOf(i), true));
    await writer.ready();
    await writer.close();
    await Promise.all(done);
    for (let i = 0; i < count; i++) expect(await readFile(join(dir, `f${i}.yaml`), 'utf8')).toBe(textOf(i));
    // No temporary file is left behind.
    expect((await readdir(dir)).filter((name) => name.startsWith('.'))).toEqual([]);
    await expect(writer.write(join(dir, 'late.yaml'), 'late', true)).rejects.toMatchObject({
      code: 'SB_EXPORT_WRITER',
    });
  });

  it('fails a file alone, with the error the main thread would have thrown', async () => {
    const dir = await folder();
    await mkdir(join(dir, 'existing'));
    await writeFile(join(dir, 'elsewhere.yaml'), 'not to be replaced');
    await symlink(join(dir, 'elsewhere.yaml'), join(dir, 'existing', 'planted.yaml'));
    const writer = new ThreadWriter();
    const before = writer.write(join(dir, 'a.yaml'), 'a', true);
    // A link planted in a folder the export did not make is refused, never written through.
    const planted = writer.write(join(dir, 'existing', 'planted.yaml'), 'b', false).catch((error: unknown) => error);
    const missingFolder = writer.write(join(dir, 'no-such-folder', 'c.yaml'), 'c', true).catch((e: unknown) => e);
    const after = writer.write(join(dir, 'd.yaml'), 'd', true);
    await writer.close();
    await expect(before).resolves.toBeUndefined();
    await expect(after).resolves.toBeUndefined();
    const refused = await planted;
    expect(refused).toBeInstanceOf(SwitchboardError);
    expect(refused).toMatchObject({ code: 'SB_WRITE_TARGET', message: expect.stringContaining('a symbolic link') });
    // The system's words name no file (ENOSPC: ..., write): the error names it, with a code.
    const missing = (await missingFolder) as SwitchboardError;
    expect(missing).toBeInstanceOf(SwitchboardError);
    expect(missing.code).toBe('SB_EXPORT_WRITE');
    expect(missing.message).toContain(`cannot write ${join(dir, 'no-such-folder', 'c.yaml')}: ENOENT`);
    expect(await readFile(join(dir, 'elsewhere.yaml'), 'utf8')).toBe('not to be replaced');
    expect(await readFile(join(dir, 'd.yaml'), 'utf8')).toBe('d');
  });

  it('holds the writer back past 1,024 files not yet written, and writes every one', async () => {
    const dir = await folder();
    const writer = new ThreadWriter();
    let most = 0;
    let unsettled = 0;
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 3000; i++) {
      unsettled++;
      writes.push(writer.write(join(dir, `f${i}.yaml`), textOf(i), true).finally(() => unsettled--));
      await writer.ready();
      most = Math.max(most, unsettled);
    }
    await writer.close();
    await Promise.all(writes);
    expect(most).toBeLessThanOrEqual(1024);
    expect(most).toBeGreaterThan(256); // it did fill: ready() waited, not every write
    expect((await readdir(dir)).length).toBe(3000);
    expect(await readFile(join(dir, 'f2999.yaml'), 'utf8')).toBe(textOf(2999));
  });

  it('fails every write with SB_EXPORT_WRITER when the thread cannot start', async () => {
    const dir = await folder();
    const writer = new ThreadWriter(join(dir, 'no-such-worker.js'));
    const writes = ['a', 'b'].map((name) =>
      writer.write(join(dir, `${name}.yaml`), name, true).catch((error: unknown) => error),
    );
    for (const failure of await Promise.all(writes)) expect(failure).toMatchObject({ code: 'SB_EXPORT_WRITER' });
    await writer.close();
    expect(await readdir(dir)).toEqual([]);
  });

  it('writes a small export on the main thread, a large one on the thread', async () => {
    expect(fileWriter(WRITER_THREAD_FROM_FILES - 1)).not.toBeInstanceOf(ThreadWriter);
    const large = fileWriter(WRITER_THREAD_FROM_FILES);
    expect(large).toBeInstanceOf(ThreadWriter);
    await large.close();
  });
});
