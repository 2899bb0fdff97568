import type { CsvJob } from './build-context.js';
import { MAX_CSV_BYTES, readTextFile, type FileSource } from './files.js';

/**
 * Reads the CSV files the documents refer to (`addressesFrom`, `recordsFrom`), relative
 * to their manifest, and adds their rows. Each file is read once per referring document.
 */
export async function runCsvJobs(jobs: readonly CsvJob[], read: Set<string>, source?: FileSource): Promise<void> {
  for (const job of jobs) {
    const reporter = job.ctx.out.reporter;
    const at = reporter.resolve({ file: job.ctx.file, doc: job.ctx.doc, path: job.path });
    const text = await readTextFile(job.absolute, job.display, MAX_CSV_BYTES, reporter, at, source);
    if (text === undefined) continue;
    read.add(job.display);
    job.ctx.out.digest.addCsv(job.owner.address, text);
    job.ctx.out.documents?.read(job.ctx.documentAddress, job.ctx.file, job.absolute, text);
    await job.add(text);
  }
}
