#!/usr/bin/env node
// The routing engine going away (docs/routing.md "When the engine goes away"): how long an
// apply with N pending deletes takes to end when the engine dies after its 20th DELETE
// (its port closes: connection refused), and how many summary lines it prints.
// Usage: npm run build && node test/bench/engine-away.mjs [rows] [--cli path/to/cli/main.js]
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const ROWS = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 700);
const cliAt = process.argv.indexOf('--cli');
const CLI = cliAt > 0 ? process.argv[cliAt + 1] : join(here, '../../dist/cli/main.js');
const { startRoutingEngineSim } = await import(join(here, '../../dist/sim/routing/index.js'));

const number = (i) => `+3229${String(i).padStart(6, '0')}`;
const engine = await startRoutingEngineSim({
  seed: {
    credentials: { basic: [{ username: 'routing', password: 'routing' }] },
    services: {
      uc: {
        active: {
          routes: {
            fields: { number: { type: 'string', unique: true, nullable: false }, route: { type: 'string' } },
            rows: Array.from({ length: ROWS }, (_, i) => ({ number: number(i), route: 'old' })),
          },
        },
      },
    },
  },
});

// A proxy that forwards to the engine and closes its port after the 20th DELETE.
let deletes = 0;
const proxy = createServer((req, res) => {
  if (req.method === 'DELETE' && ++deletes === 20) {
    proxy.closeAllConnections();
    proxy.close();
    return;
  }
  const upstream = new URL(engine.url);
  const forwarded = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  forwarded.on('error', () => res.socket?.destroy());
  req.pipe(forwarded);
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${proxy.address().port}`;

const dir = await mkdtemp(join(tmpdir(), 'switchboard-engine-away-'));
await writeFile(
  join(dir, 'routes.yaml'),
  'apiVersion: switchboard/v1\nkind: RoutingTable\nmetadata: { name: routes, service: uc, version: active, prune: true }\n' +
    'spec:\n  key: [number]\n  fields: { number: string, route: string }\n  records: []\n',
);
const begin = performance.now();
const { code, stdout } = await new Promise((resolve) =>
  execFile(
    process.execPath,
    [CLI, 'apply', dir, '--yes', '--max-delete-percent', '100'],
    {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
      env: {
        PATH: process.env.PATH,
        SWITCHBOARD_RE_URL: url,
        SWITCHBOARD_RE_USERNAME: 'routing',
        SWITCHBOARD_RE_PASSWORD: 'routing',
      },
    },
    (error, out) => resolve({ code: error?.code ?? 0, stdout: out }),
  ),
);
const seconds = (performance.now() - begin) / 1000;
const failedLines = stdout.split('\n').filter((l) => l.trimStart().startsWith('✗')).length;
const summary = stdout.split('\n').find((l) => l.startsWith('Apply ')) ?? '';
console.log(
  JSON.stringify({ rows: ROWS, cli: CLI, exit: code, seconds: Number(seconds.toFixed(1)), failedLines, summary }),
);
await engine.close();
