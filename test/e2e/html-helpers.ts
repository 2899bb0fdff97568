/** Making HTML reports for the end-to-end tests: with the built renderer, and of plans of any size. */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { digestOf } from '../../src/core/canonical-json.js';
import { summarize } from '../../src/plan/summary.js';
import { PLAN_FORMAT_VERSION, type Change, type Plan } from '../../src/plan/types.js';

/**
 * The built renderer's report of `plan`, made in a plain Node process: its script is the
 * compiled one the CLI inlines (a module imported by the test runner would be transformed).
 * With `file`, the report is written there and '' returned.
 */
export async function builtHtml(plan: Plan, file?: string): Promise<string> {
  const url = pathToFileURL(resolve(import.meta.dirname, '../../dist/plan/render-html.js')).href;
  const write = file
    ? `(await import('node:fs')).writeFileSync(${JSON.stringify(file)}, html)`
    : 'process.stdout.write(html)';
  const script = `import { renderHtml } from ${JSON.stringify(url)};
const chunks = []; for await (const c of process.stdin) chunks.push(c);
const html = renderHtml(JSON.parse(Buffer.concat(chunks).toString('utf8'))); ${write};`;
  const child = execFile(process.execPath, ['--input-type=module', '-e', script], { maxBuffer: 256 * 1024 * 1024 });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  child.stdin?.end(JSON.stringify(plan));
  const [code] = (await once(child, 'close')) as [number];
  if (code !== 0) throw new Error(`rendering the report failed: ${err}`);
  return out;
}

/**
 * A plan of `n` routing-row changes in one table (70% creates, 20% updates, 10% deletes),
 * each with a manifest position, as a large routing-table change makes.
 */
export function bigPlan(n: number): Plan {
  const changes: Change[] = [];
  const path = '/draas/v1/routes';
  for (let i = 0; i < n; i++) {
    const number = `+3222${String(i).padStart(7, '0')}`;
    const address = `routing/draas/v1/routes/number=${number}`;
    const row = { number, route: `trunk-${i % 5}`, priority: 10 };
    const source = `routing/routes.csv:${i + 2}`;
    const common = { address, kind: 'RoutingRow', provider: 'routing' as const, dependsOn: [] };
    if (i % 10 < 7) {
      changes.push({
        ...common,
        action: 'create',
        before: null,
        after: row,
        reason: 'declared, not live',
        source,
        patch: [{ op: 'add', path: '', value: row }],
        requests: [{ method: 'POST', path }],
      });
    } else if (i % 10 < 9) {
      const before = { ...row, priority: 20 };
      changes.push({
        ...common,
        action: 'update',
        id: String(i),
        before,
        after: row,
        source,
        patch: [{ op: 'replace', path: '/priority', value: 10 }],
        reason: 'declared priority differs',
        liveDigest: digestOf(before),
        requests: [{ method: 'PATCH', path }],
      });
    } else {
      changes.push({
        ...common,
        action: 'delete',
        id: String(i),
        before: row,
        after: null,
        patch: [],
        reason: 'not declared; routing/draas/v1/routes has metadata.prune: true',
        liveDigest: digestOf(row),
        requests: [{ method: 'DELETE', path }],
      });
    }
  }
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    createdAt: '2026-11-22T10:00:00Z',
    digest: digestOf(['a big plan', n]),
    tool: { name: 'switchboard', version: '0.1.0' },
    target: { baseUrl: 'https://provisioning.example.net', instance: 'main', routingEngine: 'https://re.example.net' },
    manifests: { digest: digestOf(['routing/routes.yaml']), files: ['routing/routes.yaml'] },
    options: { target: [], exclude: [], prune: true, allowReplace: false, maxDeletePercent: 100 },
    summary: summarize(changes, 0, 0),
    changes,
    unmanaged: [],
    warnings: [],
    errors: [],
  };
}
