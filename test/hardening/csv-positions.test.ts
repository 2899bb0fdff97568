/**
 * CSV files of manifests (routing `recordsFrom`, tenant `addressesFrom`): a quote that
 * never closes is reported where it opened, not at the end of a large file; integers
 * beyond 2^53 in numeric columns are positioned errors, not numbers silently rounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator } from '../../src/sim/index.js';
import { manifestDir, runCli, simEnv } from '../e2e/cli-helpers.js';

const ROWS = 200_000;
const table = (fields: string, extra = '', version = 'standby') => `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: ${version} }
spec:
  key: [number]
${fields}  recordsFrom: routes.csv
${extra}`;

/** `number,route,priority` rows; `edit(line, text)` may change one line (1 = the header). */
function routesCsv(rows: number, edit: (line: number, text: string) => string = (_l, t) => t): string {
  const lines = ['number,route,priority'];
  for (let i = 0; i < rows; i++) lines.push(`+32${String(i).padStart(9, '0')},trunk-${i % 9},${i % 50}`);
  return `${lines.map((text, i) => edit(i + 1, text)).join('\n')}\n`;
}

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(async () => {
  await sim.close();
});

describe('an unterminated quote in a CSV file is reported where it opened', () => {
  it(`in a ${ROWS.toLocaleString('en-US')}-row routing CSV: at its line and column, not at the end of the file`, async () => {
    const csv = routesCsv(ROWS, (line, text) => (line === 12 ? text.replace(',trunk', ',"trunk') : text));
    const dir = await manifestDir({ 'routes.yaml': table(''), 'routes.csv': csv });
    const begin = performance.now();
    const result = await runCli(['validate', dir], { cwd: dir });
    const ms = performance.now() - begin;
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'routes.csv:12:14: error SB_CSV: malformed CSV: the quote opened here is never closed: the cell runs to the end of the file',
    );
    expect(result.stdout).not.toContain(`routes.csv:${ROWS + 1}`);
    console.log(`[csv] unterminated quote in ${ROWS} rows reported in ${Math.round(ms)} ms`);
  }, 60_000);

  it('a quote closed far below by a stray one, followed by more text: reported at the opening quote too', async () => {
    const csv = routesCsv(5000, (line, text) =>
      line === 7 ? text.replace(',trunk', ',"trunk') : line === 4000 ? text.replace('trunk-', 'tr"unk-') : text,
    );
    const dir = await manifestDir({ 'routes.yaml': table(''), 'routes.csv': csv });
    const result = await runCli(['validate', dir], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /routes\.csv:7:14: error SB_CSV: malformed CSV: the quoted cell opened here closes at line 4000, column 17 followed by "u"/,
    );
  });

  it('in an address CSV of a tenant (addressesFrom) as well', async () => {
    const rows = ['premises,city,country,isoCode,number,postalCode,state,street'];
    for (let i = 0; i < 300; i++)
      rows.push(`${i === 4 ? '"Depot' : 'Depot'},Gent,Belgium,BE,${i + 1},9000,,Korenmarkt`);
    const dir = await manifestDir({
      'acme.yaml': `apiVersion: switchboard/v1
kind: Tenant
metadata: { name: csv-co, reseller: north }
spec:
  billingId: T-CSV-CO
  subscriptions:
    - name: main
      billingId: T-CSV-CO-MAIN
      addressesFrom: addresses.csv
`,
      'addresses.csv': `${rows.join('\n')}\n`,
    });
    const result = await runCli(['validate', dir], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'addresses.csv:6:1: error SB_CSV: malformed CSV: the quote opened here is never closed',
    );
  });
});

describe('integers beyond 2^53 are positioned errors, unless the column is declared a string', () => {
  const big = '9007199254740993';

  it('a CSV cell of a column declared integer: file:line:column of the cell', async () => {
    const csv = routesCsv(10, (line, text) => (line === 3 ? text.replace(/,\d+$/, `,${big}`) : text));
    const dir = await manifestDir({ 'routes.yaml': table('  fields: { priority: integer }\n'), 'routes.csv': csv });
    const result = await runCli(['validate', dir], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      `routes.csv:3:22: error SB_ROW_TYPE: "priority" ${big} is beyond 2^53 (9007199254740991), which no number holds exactly`,
    );
  });

  it('declared a string, the same cell is kept as text', async () => {
    const csv = routesCsv(10, (line, text) => (line === 3 ? text.replace(/,\d+$/, `,${big}`) : text));
    const dir = await manifestDir({ 'routes.yaml': table('  fields: { priority: string }\n'), 'routes.csv': csv });
    const result = await runCli(['validate', dir], { cwd: dir });
    expect(result.stdout).toContain('OK:');
    expect(result.code).toBe(0);
  });

  it('an inline record of a column declared integer: the YAML position', async () => {
    const dir = await manifestDir({
      'routes.yaml': `apiVersion: switchboard/v1
kind: RoutingTable
metadata: { name: routes, service: draas, version: standby }
spec:
  key: [number]
  fields: { priority: integer }
  records:
    - { number: "+3220000001", route: trunk-1, priority: 5 }
    - { number: "+3220000002", route: trunk-1, priority: ${big} }
`,
    });
    const result = await runCli(['validate', dir], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/routes\.yaml:9:\d+: error SB_ROW_TYPE: "priority": an integer beyond 2\^53/);
  });

  it('a column typed by the live rows (no spec.fields): plan refuses the cell with its position', async () => {
    const csv = `number,route,priority\n+3229900001,trunk-1,7\n+3229900002,trunk-1,${big}\n`;
    const dir = await manifestDir({ 'routes.yaml': table('', '', 'active'), 'routes.csv': csv });
    const result = await runCli(['plan', dir], { env: simEnv(sim.url) });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `field "priority": ${big} is beyond 2^53, and the engine holds numbers in this column`,
    );
    expect(result.stderr).toContain('routes.csv:3');
  });
});
