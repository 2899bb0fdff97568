import { Pacer } from '../core/pacer.js';
import { SwitchboardError } from '../core/errors.js';
import { Codes } from './codes.js';
import { requiredOnFirstUse } from '../core/on-first-use.js';
import type { Reporter } from './reporter.js';

/**
 * One data row of a CSV file: its cells and the line it ends on (1-based). The cells array
 * is only the handler's during the call: the next row may reuse it.
 */
export type CsvRowHandler = (cells: string[], line: number) => void;

/**
 * Streams the rows of a CSV text (header row first) to `onRow`, without building
 * intermediate objects per row. A row whose cell count differs from the header is
 * reported as `file.csv:line` and skipped, so that all of them are reported at once; a
 * syntax error (an unclosed quote) stops the file there.
 * `onHeader` sees the header row first; returning false skips the rows (a bad header).
 * Returns the header, or undefined when the file has none. A million rows take seconds:
 * the event loop gets a turn every slice, and a signal stops the read (src/core/pacer.ts).
 */
export async function readCsv(
  text: string,
  file: string,
  reporter: Reporter,
  onHeader: (header: string[]) => boolean,
  onRow: CsvRowHandler,
): Promise<string[] | undefined> {
  let header: string[] | undefined;
  let accepted = true;
  const take = (record: string[], line: number): void => {
    if (!header) {
      header = record.map((h) => h.trim());
      accepted = onHeader(header);
      return;
    }
    if (!accepted) return;
    if (record.length !== header.length) {
      reporter.error(Codes.csv, `row has ${record.length} cells, the header has ${header.length}`, {
        file,
        line,
        column: 1,
      });
      return;
    }
    onRow(record, line);
  };
  const pacer = new Pacer();
  try {
    if (text.includes('"') || text.includes('\r')) {
      // Quoted cells may span lines, and a lone CR ends a line: csv-parse reads these, in slices.
      await parseInSlices(text, take, pacer);
    } else {
      // Without quotes and with \n line ends a record is a line and a cell is what lies
      // between two commas: split directly, as csv-parse would (1,000,000 rows: 1.2 s of
      // csv-parse and its garbage, found profiling a 1,000,000-row routing table).
      await eachPlainRecord(text, take, pacer);
    }
  } catch (error) {
    if (error instanceof SwitchboardError) throw error; // the run was interrupted
    const quote = QUOTE_ERRORS.has(String((error as { code?: unknown }).code)) ? quoteProblem(text) : undefined;
    if (quote) {
      reporter.error(Codes.csv, `malformed CSV: ${quote.message}`, { file, line: quote.line, column: quote.column });
    } else {
      const line = (error as { lines?: number }).lines ?? 1;
      const message = error instanceof Error ? error.message.replace(/^Invalid Record Length: |^/, '') : String(error);
      reporter.error(Codes.csv, `malformed CSV: ${message}`, { file, line, column: 1 });
    }
  }
  if (!header) reporter.error(Codes.csv, 'empty CSV file: expected a header row', { file, line: 1, column: 1 });
  return header;
}

/** Characters of CSV text handed to csv-parse at a time, between two looks at the pace. */
const PARSE_SLICE = 256 * 1024;

/** Loaded for the first quoted file: most CSV files have no quotes, and most runs no CSV file. */
const csvParse = requiredOnFirstUse<typeof import('csv-parse')>('csv-parse');

/**
 * csv-parse over the text, fed a slice at a time so that the event loop gets its turns:
 * each record (with the line it ends on) goes to `take` as the parser finds it. Rejects
 * with csv-parse's error (its code and line) as its synchronous form throws it.
 */
async function parseInSlices(
  text: string,
  take: (record: string[], line: number) => void,
  pacer: Pacer,
): Promise<void> {
  const parseStream = csvParse().parse;
  return new Promise((resolve, reject) => {
    let failed = false;
    const parser = parseStream({
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (record: string[], context: { lines: number }) => {
        take(record, context.lines);
        return null;
      },
    });
    parser.on('error', (error) => {
      failed = true;
      reject(error);
    });
    parser.on('end', () => resolve());
    parser.resume(); // records are taken in on_record: nothing to read
    const feed = async (): Promise<void> => {
      for (let at = 0; at < text.length && !failed; at += PARSE_SLICE) {
        parser.write(text.slice(at, at + PARSE_SLICE));
        if (pacer.due(PARSE_SLICE)) await pacer.pause();
      }
      if (!failed) parser.end();
    };
    feed().catch((error: unknown) => {
      failed = true;
      parser.destroy();
      reject(error);
    });
  });
}

/** csv-parse's errors about a quoted cell, which it reports where it noticed, not where the quote opened. */
const QUOTE_ERRORS = new Set(['CSV_QUOTE_NOT_CLOSED', 'CSV_INVALID_CLOSING_QUOTE']);

/**
 * The first quoted cell that never closes, or closes followed by something other than a
 * comma or a line end, at the position of its opening quote. An unterminated quote swallows
 * the rest of the file, so the parser only notices at the end (line 1,000,001 of a
 * million-row file); the user needs the row where the quote opened. One pass, run only
 * after the parser failed.
 */
function quoteProblem(text: string): { line: number; column: number; message: string } | undefined {
  const QUOTE = 0x22;
  const COMMA = 0x2c;
  const LF = 0x0a;
  const CR = 0x0d;
  let line = 1;
  let lineStart = 0;
  let fieldStart = true;
  let open: { line: number; column: number } | undefined;
  for (let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (open) {
      if (c === QUOTE) {
        const next = text.charCodeAt(i + 1);
        if (next === QUOTE) {
          i++; // "" is a quote inside the cell
          continue;
        }
        if (Number.isNaN(next) || next === COMMA || next === LF || next === CR) {
          open = undefined;
          fieldStart = false;
          continue;
        }
        const at = `line ${line}, column ${i + 2 - lineStart}`;
        return {
          ...open,
          message: `the quoted cell opened here closes at ${at} followed by ${JSON.stringify(text[i + 1])}, not by a comma or a line end (inside quotes, write "" for a quote)`,
        };
      }
    } else if (c === QUOTE && fieldStart) {
      open = { line, column: i + 1 - lineStart };
      continue;
    }
    if (c === LF) {
      line++;
      lineStart = i + 1;
    }
    if (!open) fieldStart = c === COMMA || c === LF || c === CR;
  }
  if (!open) return undefined;
  const last = text.endsWith('\n') ? line - 1 : line;
  return {
    ...open,
    message: `the quote opened here is never closed: the cell runs to the end of the file (line ${last}); close it with "`,
  };
}

/**
 * The records of a quote-free CSV text whose lines end with \n; empty lines are skipped. The
 * cells of a line are those `line.split(',')` gives, taken from the text without the line's
 * copy, into one array for every record: `take` reads it during its call and keeps none of
 * it (a million rows: a million arrays and line copies less for the collector).
 */
async function eachPlainRecord(
  text: string,
  take: (record: string[], line: number) => void,
  pacer: Pacer,
): Promise<void> {
  const cells: string[] = [];
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0; // csv-parse's bom option
  // The next comma of the text, kept across lines: a line without one (a one-column file)
  // must not search the rest of the text again, which would make the read quadratic.
  let comma = text.indexOf(',', start);
  for (let line = 1; start < text.length; line++) {
    if (pacer.due()) await pacer.pause();
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) {
      let count = 0;
      for (let from = start; ;) {
        if (comma >= 0 && comma < from) comma = text.indexOf(',', from);
        if (comma < 0 || comma >= end) {
          cells[count++] = text.slice(from, end);
          break;
        }
        cells[count++] = text.slice(from, comma);
        from = comma + 1;
      }
      cells.length = count;
      take(cells, line);
    }
    start = end + 1;
  }
}

/** Column (1-based, in characters) of cell `index` of an unquoted row: good enough to point at it. */
export function cellColumn(cells: string[], index: number): number {
  let column = 1;
  for (let i = 0; i < index; i++) column += (cells[i]?.length ?? 0) + 1;
  return column;
}
