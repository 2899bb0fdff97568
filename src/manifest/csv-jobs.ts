import type { CsvJob } from './build-context.js';
import { Codes } from './codes.js';
import { MAX_CSV_BYTES, readTextFile, type FileSource } from './files.js';
import { outsideRoot } from './manifest-root.js';

/**
 * Reads the CSV files the documents refer to (`addressesFrom`, `recordsFrom`), relative
 * to their manifest, and adds their rows. Each file is read once per referring document.
 */
export async function runCsvJobs(jobs: readonly CsvJob[], read: Set<string>, source?: FileSource): Promise<void> {
  for (const job of jobs) {
    const reporter = job.ctx.out.reporter;
    const at = reporter.resolve({ file: job.ctx.file, doc: job.ctx.doc, path: job.path });
    // Refused before anything is read: no line of a file outside the root reaches a message.
    const outside = source?.has(job.absolute) ? undefined : await outsideRoot(job.absolute, job.ctx.root);
    if (outside) {
      const setting = String(job.path[job.path.length - 1]);
      reporter.error(
        Codes.pathOutsideRoot,
        `${setting}: ${job.display} is refused: ${outside}. A manifest may only name files of its own repository (docs/manifests.md "Files a manifest names")`,
        at,
      );
      continue;
    }
    const text = await readTextFile(job.absolute, job.display, MAX_CSV_BYTES, reporter, at, source);
    if (text === undefined) continue;
    read.add(job.display);
    job.ctx.out.digest.addCsv(job.owner.address, text);
    job.ctx.out.documents?.read(job.ctx.documentAddress, job.ctx.file, job.absolute, text);
    await job.add(text);
  }
}
