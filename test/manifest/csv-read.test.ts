import { describe, expect, it } from 'vitest';
import { readCsv } from '../../src/manifest/csv.js';
import { Reporter } from '../../src/manifest/reporter.js';

interface Read {
  header: string[] | undefined;
  rows: [number, string[]][];
  problems: string[];
}

async function read(text: string): Promise<Read> {
  const reporter = new Reporter();
  const rows: [number, string[]][] = [];
  // Copied: the handler's array is only its own during the call.
  const header = await readCsv(
    text,
    't.csv',
    reporter,
    () => true,
    (cells, line) => rows.push([line, [...cells]]),
  );
  const problems = reporter.diagnostics.map((d) => `${d.source?.line}: ${d.message}`);
  return { header, rows, problems };
}

/** A small random generator, seeded: the same texts on every run. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const PIECES = ['', 'a', '+3221234567', 'trunk-7', ' spaced ', '42', 'x'.repeat(20), 'é'];

/**
 * Quote-free CSV: one column (no comma at all in most lines) or three, rows of the header's
 * width and some of another, empty cells and empty lines.
 */
function randomCsv(random: () => number): { text: string; width: number } {
  const width = random() < 0.3 ? 1 : 3;
  const lines = [['number', 'route', 'priority'].slice(0, width).join(',')];
  const count = Math.floor(random() * 40);
  for (let i = 0; i < count; i++) {
    if (random() < 0.1) {
      lines.push('');
      continue;
    }
    const cells = random() < 0.85 ? width : 1 + Math.floor(random() * 4);
    lines.push(Array.from({ length: cells }, () => PIECES[Math.floor(random() * PIECES.length)]).join(','));
  }
  return { text: lines.join('\n') + (random() < 0.5 ? '\n' : ''), width };
}

describe('readCsv', () => {
  it('gives each row as split at its commas, with its line, on both paths (plain and csv-parse)', async () => {
    const random = generator(7);
    for (let i = 0; i < 300; i++) {
      const { text, width } = randomCsv(random);
      const plain = await read(text);
      const expected = text
        .split('\n')
        .map((line, index): [number, string[]] => [index + 1, line.split(',')])
        .filter(([, cells], index) => index > 0 && !(cells.length === 1 && cells[0] === ''));
      expect(plain.header).toEqual(['number', 'route', 'priority'].slice(0, width));
      expect(plain.rows).toEqual(expected.filter(([, cells]) => cells.length === width));
      const wrong = expected.filter(([, cells]) => cells.length !== width);
      const says = ([line, cells]: [number, string[]]) =>
        `${line}: row has ${cells.length} cells, the header has ${width}`;
      expect(plain.problems).toEqual(wrong.map(says));
      // CRLF line ends take csv-parse's path: the same rows, lines and problems.
      expect(await read(text.replace(/\n/g, '\r\n'))).toEqual(plain);
    }
  });

  it('skips a byte order mark and reads a last line without its line end', async () => {
    expect(await read('\ufeffa,b\n1,2\n3,')).toEqual({
      header: ['a', 'b'],
      rows: [
        [2, ['1', '2']],
        [3, ['3', '']],
      ],
      problems: [],
    });
  });
});
