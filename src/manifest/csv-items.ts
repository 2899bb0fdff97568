import { fieldSpec } from '../kinds/fields.js';
import { emit, type CsvJob, type Json } from './build-context.js';
import { Codes } from './codes.js';
import { cellColumn, readCsv } from './csv.js';
import { schemaIssues } from './schema-errors.js';
import { schemaSet } from './schemas.js';
import { didYouMean } from './suggest.js';
import { addressOf, fieldsOf, identityOf, type KindPlan } from './kind-plans.js';

/**
 * The rows of a kind's CSV source (`addressesFrom`): the header must use the kind's columns
 * (`csv.header`) and have every column the row schema requires; each row is checked
 * against that schema (a cell of an integer field holding digits is read as a number) and
 * becomes one object, like an item written in the manifest.
 */
export async function addCsvItems(job: CsvJob, plan: KindPlan, text: string): Promise<void> {
  const csv = plan.form.csv;
  if (!csv) throw new Error(`kind table: ${plan.kind.kind} has no CSV source`);
  const reporter = job.ctx.out.reporter;
  const validate = schemaSet().validator(csv.rowSchema);
  const rowSchema = schemaSet().schemaAt(csv.rowSchema);
  if (!validate || !rowSchema) throw new Error(`kind table: no schema at ${csv.rowSchema}`);
  const required = (rowSchema as { required?: string[] }).required ?? [];
  const integers = new Set(csv.header.filter((name) => fieldSpec(plan.kind.fields, name)?.type === 'integer'));
  let header: string[] = [];
  const onHeader = (h: string[]): boolean => {
    header = h;
    let ok = true;
    h.forEach((name, i) => {
      if (csv.header.includes(name)) return;
      reporter.error(
        Codes.csv,
        `unknown column "${name}"${didYouMean(name, csv.header)}; the header is ${csv.header.join(',')}`,
        { file: job.display, line: 1, column: cellColumn(h, i) },
      );
      ok = false;
    });
    for (const column of required) {
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
      data[name] = integers.has(name) && /^[0-9]+$/.test(cell) ? Number(cell) : cell;
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
    const fields = fieldsOf(plan, data);
    const parentAddress = job.owner.address;
    emit(job.ctx, {
      kind: plan.kind.kind,
      address: addressOf(plan, fields, parentAddress),
      parentAddress,
      identity: identityOf(plan, fields),
      fields,
      path: job.path,
      origin: { type: 'csv', file: job.display, line },
    });
  };
  await readCsv(text, job.display, reporter, onHeader, onRow);
}
