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

/** Quote-free CSV: three columns, rows of 2–4 cells (some of the wrong width), empty cells and lines. */
function randomCsv(random: () => number): string {
  const lines = ['number,route,priority'];
  const count = Math.floor(random() * 40);
  for (let i = 0; i < count; i++) {
    if (random() < 0.1) {
      lines.push('');
      continue;
    }
    const width = random() < 0.85 ? 3 : 2 + Math.floor(random() * 3);
    lines.push(Array.from({ length: width }, () => PIECES[Math.floor(random() * PIECES.length)]).join(','));
  }
  return lines.join('\n') + (random() < 0.5 ? '\n' : '');
}

describe('readCsv', () => {
  it('gives each row as split at its commas, with its line, on the quote-free path and through csv-parse alike', async () => {
    const random = generator(7);
    for (let i = 0; i < 300; i++) {
      const text = randomCsv(random);
      const plain = await read(text);
      const expected = text
        .split('\n')
        .map((line, index): [number, string[]] => [index + 1, line.split(',')])
        .filter(([, cells], index) => index > 0 && !(cells.length === 1 && cells[0] === ''));
      expect(plain.header).toEqual(['number', 'route', 'priority']);
      expect(plain.rows).toEqual(expected.filter(([, cells]) => cells.length === 3));
      const wrong = expected.filter(([, cells]) => cells.length !== 3);
      expect(plain.problems).toEqual(
        wrong.map(([line, cells]) => `${line}: row has ${cells.length} cells, the header has 3`),
      );
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
