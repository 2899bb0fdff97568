import * as path from 'node:path';
import { routingTableKind } from '../kinds/routing-table.js';
import { routingTestKind } from '../kinds/routing-test.js';
import type { LookupMode, RoutingTestSet, RoutingVector } from './assurance-types.js';
import { csvDisplayName, type DocContext, type DocumentBuilder, type Json } from './build-context.js';
import { Codes } from './codes.js';
import { cellColumn, readCsv } from './csv.js';
import type { Reporter } from './reporter.js';
import type { JsonScalar } from './types.js';

/** The CSV column that says a vector expects no row (`absent`), and the prefix of an expected field's column. */
const EXPECT = 'expect';
const EXPECT_PREFIX = 'expect.';

/**
 * RoutingTest documents (docs/assurance.md "Routing tests"): the table they test, its
 * lookup semantics (`match`), and the vectors, inline and from a `vectorsFrom` CSV file
 * (read after every document). The vectors are checked against the declared rows once
 * every document is read (routing-test-check.ts).
 */
export const routingTestDocument: DocumentBuilder = {
  address: (metadata) => routingTestKind.address(String(metadata['name'])),
  build: (ctx, metadata, spec) => {
    const reporter = ctx.out.reporter;
    const place = (p: (string | number)[]) => reporter.resolve({ file: ctx.file, doc: ctx.doc, path: p });
    const [service = '', version = '', table = ''] = String(spec['table']).split('/');
    const mode = lookupMode(String(spec['match'] ?? 'exact'));
    const at = place([]);
    const set: RoutingTestSet = {
      name: String(metadata['name']),
      table: routingTableKind.address(service, version, table),
      ref: { service, version, table },
      mode,
      vectors: [],
      source: `${at.file}:${at.line}:${at.column}`,
    };
    ((spec['vectors'] as Json[] | undefined) ?? []).forEach((raw, i) => {
      const where = place(['spec', 'vectors', i]);
      set.vectors.push({
        lookup: raw['lookup'] as Record<string, JsonScalar>,
        expect: raw['expect'] === 'absent' ? null : (raw['expect'] as Record<string, JsonScalar>),
        source: `${where.file}:${where.line}:${where.column}`,
      });
    });
    ctx.out.routingTests.push(set);
    if (typeof spec['vectorsFrom'] === 'string') addCsvJob(ctx, set, spec['vectorsFrom']);
  },
};

/** `exact`, `longest-prefix(prefix)` (the schema allows nothing else). */
function lookupMode(text: string): LookupMode {
  const m = /^longest-prefix\(([A-Za-z_][A-Za-z0-9_]*)\)$/.exec(text);
  return m ? { type: 'longest-prefix', column: m[1] as string } : { type: 'exact' };
}

function addCsvJob(ctx: DocContext, set: RoutingTestSet, file: string): void {
  const display = csvDisplayName(ctx, file);
  ctx.out.csvJobs.push({
    absolute: path.resolve(ctx.dir, file),
    display,
    owner: { address: ctx.documentAddress },
    ctx,
    path: ['spec', 'vectorsFrom'],
    add: (text) => addCsvVectors(text, display, set.vectors, ctx.out.reporter),
  });
}

/**
 * Vectors of a CSV file: lookup columns by field name, `expect.<field>` columns for the
 * values the answering row must hold (an empty cell checks nothing), and an optional
 * `expect` column whose `absent` says no row may answer. Cells are text.
 */
async function addCsvVectors(text: string, file: string, vectors: RoutingVector[], reporter: Reporter): Promise<void> {
  let header: string[] = [];
  const onHeader = (h: string[]): boolean => {
    header = h;
    let ok = true;
    h.forEach((name, i) => {
      const field = name.startsWith(EXPECT_PREFIX) ? name.slice(EXPECT_PREFIX.length) : name;
      if (name === EXPECT || /^[A-Za-z_][A-Za-z0-9_]*$/.test(field)) return;
      reporter.error(Codes.csv, `header "${name}" is not a field name, expect.<field> or expect`, {
        file,
        line: 1,
        column: cellColumn(h, i),
      });
      ok = false;
    });
    if (!h.some((name) => name !== EXPECT && !name.startsWith(EXPECT_PREFIX))) {
      reporter.error(Codes.csv, 'the header names no lookup field (a column that is not expect or expect.<field>)', {
        file,
        line: 1,
        column: 1,
      });
      ok = false;
    }
    return ok;
  };
  const onRow = (cells: string[], line: number): void => {
    const lookup: Record<string, JsonScalar> = {};
    const expect: Record<string, JsonScalar> = {};
    let absent = false;
    let bad: string | undefined;
    header.forEach((name, i) => {
      const value = cells[i] ?? '';
      if (name === EXPECT) {
        if (value === 'absent') absent = true;
        else if (value !== '') bad = `the expect cell holds "${value}": only absent (or nothing) may stand there`;
      } else if (name.startsWith(EXPECT_PREFIX)) {
        if (value !== '') expect[name.slice(EXPECT_PREFIX.length)] = value;
      } else if (value !== '') lookup[name] = value;
    });
    const expects = Object.keys(expect).length > 0;
    if (!bad && absent && expects) bad = 'the row expects absent and field values: one or the other';
    if (!bad && !absent && !expects) bad = 'the row expects nothing: give expect.<field> values, or absent in expect';
    if (!bad && Object.keys(lookup).length === 0) bad = 'the row looks nothing up: its lookup cells are empty';
    if (bad) {
      reporter.error(Codes.csv, bad, { file, line, column: 1 });
      return;
    }
    vectors.push({ lookup, expect: absent ? null : expect, source: `${file}:${line}:1` });
  };
  await readCsv(text, file, reporter, onHeader, onRow);
}
