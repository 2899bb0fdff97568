/**
 * Reads every journal a state directory holds, the way an operator would after a crash:
 * each line must be a JSON object of a known type; a torn last line (the process died in
 * the middle of a write) is tolerated and reported, anything else is corruption.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface JournalLine {
  type: 'run' | 'intent' | 'outcome' | 'change';
  seq?: number;
  address?: string;
  method?: string;
  path?: string;
  ok?: boolean;
  status?: number;
  [key: string]: unknown;
}

export interface JournalReport {
  files: string[];
  lines: JournalLine[];
  /** Files whose last line was torn (tolerated). */
  torn: string[];
  /** Corrupt lines (anything but a torn last line): `file:line: reason`. */
  corrupt: string[];
}

const TYPES = new Set(['run', 'intent', 'outcome', 'change']);

export async function readJournals(stateDir: string): Promise<JournalReport> {
  const report: JournalReport = { files: [], lines: [], torn: [], corrupt: [] };
  const names = (await readdir(stateDir).catch(() => [] as string[]))
    .filter((n) => n.startsWith('journal-') && n.endsWith('.jsonl'))
    .sort();
  for (const name of names) {
    const file = join(stateDir, name);
    report.files.push(file);
    const text = await readFile(file, 'utf8');
    const rows = text.split('\n');
    const complete = text.endsWith('\n') || text === '';
    if (complete) rows.pop();
    rows.forEach((row, i) => {
      const last = i === rows.length - 1 && !complete;
      try {
        const parsed = JSON.parse(row) as JournalLine;
        if (!TYPES.has(parsed.type)) throw new Error(`unknown type ${String(parsed.type)}`);
        if (last) report.torn.push(file); // parses, but the newline never made it
        report.lines.push(parsed);
      } catch (error) {
        if (last) report.torn.push(file);
        else report.corrupt.push(`${name}:${i + 1}: ${(error as Error).message}`);
      }
    });
  }
  return report;
}

/** Journal intents of writes, by `METHOD path`. */
export function writeIntents(lines: JournalLine[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const l of lines) {
    if (l.type !== 'intent' || l.method === 'GET' || !l.path) continue;
    const key = `${l.method ?? ''} ${decodeURIComponent(l.path.split('?')[0] ?? '')}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
