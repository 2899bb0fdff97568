/**
 * The tutorial on a machine where port 8080 is taken: the page says what to do (another
 * port, or a free one), quotes the error `sim` really prints, and the simulator's address
 * is typed in one command only, so that a reader on another port changes one line. Every
 * later command reaches the simulator through the variable that line sets.
 */
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMarkdown, type Item } from '../docs/markdown.js';
import { numberedSteps, stepsOf } from '../docs/tutorial-runner.js';
import { runCli } from '../e2e/cli-helpers.js';

const PAGE = join(resolve(import.meta.dirname, '../..'), 'docs/tutorial.md');
const items: Item[] = parseMarkdown(readFileSync(PAGE, 'utf8'));
const prose = items
  .filter((i) => i.type === 'prose')
  .map((i) => i.text)
  .join(' ');
/** Any address of the page's simulator, however written. */
const SIM_ADDRESS = /(127\.0\.0\.1|localhost):\d+/;

describe('docs/tutorial.md on a machine where the port is taken', () => {
  let busy: Server;
  let port = 0;
  beforeAll(async () => {
    busy = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    port = (busy.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((done) => busy.close(() => done())));

  it('names the simulator address in one command only; the others use the variable it sets', () => {
    const commands = stepsOf(numberedSteps(items)).filter((s) => s.kind === 'run' && !s.background);
    const naming = commands.filter((s) => s.kind === 'run' && SIM_ADDRESS.test(s.script));
    expect(naming.map((s) => s.line)).toHaveLength(1);
    const variable = /export (\w+)=https?:\/\/(?:127\.0\.0\.1|localhost):\d+/.exec(
      naming[0]?.kind === 'run' ? naming[0].script : '',
    )?.[1];
    expect(variable, 'the command naming the address exports it').toBeDefined();
    const curls = commands.filter((s) => s.kind === 'run' && s.script.includes('curl'));
    expect(curls.length).toBeGreaterThan(0);
    for (const step of curls) expect(step.kind === 'run' && step.script, `line ${step.line}`).toContain(`$${variable}`);
  });

  it('says what to do when the port is in use, quoting what sim prints', async () => {
    const result = await runCli(['sim', '--port', String(port)]);
    expect(result.code).toBe(1);
    const printed = /^Error: port \d+ on 127\.0\.0\.1 is in use/m.exec(result.stderr)?.[0];
    expect(printed).toBeDefined();
    expect(prose).toContain(printed!.replace(String(port), '8080'));
    expect(prose).toMatch(/npx switchboard sim --port \d+/);
    expect(prose).toContain('--port 0');
  });
});
