import { emit, type CsvJob, type Json } from './build-context.js';
import { addressFields } from './build-tenant.js';
import { addCsvRecords, type RowAppender } from './build-routing.js';
import { Codes } from './codes.js';
import { cellColumn, readCsv } from './csv.js';
import { MAX_CSV_BYTES, readTextFile } from './files.js';
import { schemaIssues } from './schema-errors.js';
import { schemaSet } from './schemas.js';
import { didYouMean } from './suggest.js';
import type { DesiredRoutingTable } from './types.js';

/** The platform's bulk address CSV header (Doc 2 §4.6, kind `addresses`). */
export const ADDRESS_CSV_HEADER = ['premises', 'city', 'country', 'isoCode', 'number', 'postalCode', 'state', 'street'];
const REQUIRED_ADDRESS_COLUMNS = ['street', 'city', 'postalCode', 'country'];

/**
 * Reads the CSV files the documents refer to (`addressesFrom`, `recordsFrom`), relative
 * to their manifest, and adds their rows. Each file is read once per referring document.
 */
export async function runCsvJobs(
  jobs: readonly CsvJob[],
  tables: ReadonlyMap<DesiredRoutingTable, RowAppender>,
  read: Set<string>,
): Promise<void> {
  for (const job of jobs) {
    const reporter = job.ctx.out.reporter;
    const at = reporter.resolve({ file: job.ctx.file, doc: job.ctx.doc, path: job.path });
    const text = await readTextFile(job.absolute, job.display, MAX_CSV_BYTES, reporter, at);
    if (text === undefined) continue;
    read.add(job.display);
    job.ctx.out.digest.addCsv(job.owner.address, text);
    if (job.type === 'records') {
      const appender = [...tables.entries()].find(([t]) => t.table === job.owner)?.[1];
      if (appender) addCsvRecords(text, job.display, appender, reporter);
    } else {
      addAddresses(job, text);
    }
  }
}

function addAddresses(job: CsvJob, text: string): void {
  const reporter = job.ctx.out.reporter;
  const validate = schemaSet().ajv.getSchema('tenant.schema.json#/$defs/address');
  if (!validate) throw new Error('address schema missing');
  let header: string[] = [];
  const onHeader = (h: string[]): boolean => {
    header = h;
    let ok = true;
    h.forEach((name, i) => {
      if (ADDRESS_CSV_HEADER.includes(name)) return;
      reporter.error(
        Codes.csv,
        `unknown column "${name}"${didYouMean(name, ADDRESS_CSV_HEADER)}; the header is ${ADDRESS_CSV_HEADER.join(',')}`,
        { file: job.display, line: 1, column: cellColumn(h, i) },
      );
      ok = false;
    });
    for (const column of REQUIRED_ADDRESS_COLUMNS) {
      if (h.includes(column)) continue;
      reporter.error(Codes.csv, `the header has no "${column}" column`, { file: job.display, line: 1, column: 1 });
      ok = false;
    }
    return ok;
  };
  const onRow = (cells: string[], line: number): void => {
    const data: Json = {};
    header.forEach((name, i) => {
      const cell = cells[i] ?? '';
      if (cell === '') return;
      data[name] = name === 'postalCode' && /^[0-9]+$/.test(cell) ? Number(cell) : cell;
    });
    if (!validate(data)) {
      for (const issue of schemaIssues(validate.errors ?? [], data)) {
        const column = header.indexOf(String(issue.path[0] ?? ''));
        reporter.error(issue.code, issue.message, {
          file: job.display,
          line,
          column: column < 0 ? 1 : cellColumn(cells, column),
        });
      }
      return;
    }
    const fields = addressFields(data);
    const full = String(fields['fullAddress']);
    emit(job.ctx, {
      kind: 'Address',
      address: `${job.owner.address}/address/${full}`,
      parentAddress: job.owner.address,
      identity: { fullAddress: full },
      fields,
      path: job.path,
      origin: { type: 'csv', file: job.display, line },
    });
  };
  readCsv(text, job.display, reporter, onHeader, onRow);
}
