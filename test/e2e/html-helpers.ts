/** Making HTML reports for the end-to-end tests: with the built renderer, and of plans of any size. */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { inflateSync } from 'node:zlib';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { digestOf } from '../../src/core/canonical-json.js';
import { summarize } from '../../src/plan/summary.js';
import { PLAN_FORMAT_VERSION, type Change, type Plan, type PlanMessage } from '../../src/plan/types.js';

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

/**
 * A refused plan of `n` changes in many groups (tenants, their subscriptions and
 * entitlements, one routing table), as a large review makes: four refusals name changes
 * (two far down the list, built last), one names none, and capacity rows with long
 * addresses squeeze the capacity table.
 */
export function refusedPlan(n: number): Plan {
  const changes: Change[] = [];
  const common = { provider: 'platform' as const, dependsOn: [], reason: 'declared, not found live' };
  for (let i = 0; changes.length < n; i++) {
    const tenant = `tenant/customer-${String(i).padStart(4, '0')}`;
    const sub = `${tenant}/subscription/main`;
    const created = (address: string, kind: string, after: Record<string, unknown>): Change => ({
      ...common,
      address,
      kind,
      action: 'create',
      before: null,
      after,
      patch: [{ op: 'add', path: '', value: after }],
      requests: [{ method: 'POST', path: `/api/v01/draas/main/${kind.toLowerCase()}s` }],
    });
    changes.push(created(tenant, 'Tenant', { billingId: `T-${i}`, markup: i % 7 }));
    changes.push(created(sub, 'Subscription', { billingId: `T-${i}-MAIN`, uc: 'uc_alpha' }));
    for (const type of ['BE geo', 'BE tollfree', 'BE mobile'])
      changes.push(created(`${sub}/entitlement/${type}`, 'Entitlement', { type, entitlement: 10 + (i % 5) }));
  }
  changes.length = Math.min(changes.length, n - 200);
  const routing = bigPlan(200).changes;
  changes.push(...routing);
  const refused = [0, 7, changes.length - 2, changes.length - 150].map((i) => changes[i] as Change);
  const errors: PlanMessage[] = refused.map((c, k) => ({
    code: k % 2 === 0 ? 'SB_PERMISSION' : 'SB_POLICY',
    address: c.address,
    message: `the caller may not ${c.action} ${c.address} (refusal ${k + 1})`,
  }));
  errors.push({ code: 'SB_DELETE_THRESHOLD', message: 'the plan deletes 20 of 200 rows (10%): over the threshold' });
  const capacity = changes
    .filter((c) => c.kind === 'Entitlement')
    .slice(0, 3)
    .map((c) => ({
      address: c.address.replace(/\/entitlement\/.*$/, ''),
      subject: `entitlement ${String(c.after?.['type'])}`,
      declared: 10,
      assigned: 12,
      reserved: 0,
      headroom: -2,
      warning: 'assigned numbers exceed the declared entitlement',
    }));
  const base = bigPlan(1);
  return {
    ...base,
    digest: digestOf(['a refused plan', n]),
    summary: summarize(changes, 0, 0),
    changes,
    errors,
    capacity: { rows: capacity },
  } as Plan;
}

/**
 * The text of a PDF as Chromium (Skia) writes it, in drawing order: each page's content
 * streams (Flate) decoded, each `Tj`/`TJ` string mapped to Unicode through its font's
 * ToUnicode CMap. Enough to search a printout for what it must hold.
 */
export function pdfText(pdf: Buffer): string {
  const raw = pdf.toString('latin1');
  const streams = new Map<number, { dict: string; data: string }>();
  const objects = /(\d+) 0 obj\s*<<((?:(?!endobj)[\s\S])*?)>>\s*stream\r?\n/g;
  for (let m = objects.exec(raw); m; m = objects.exec(raw)) {
    const length = Number(/\/Length (\d+)(?!\s+\d+\s+R)/.exec(m[2] ?? '')?.[1] ?? NaN);
    const start = m.index + m[0].length;
    const bytes = pdf.subarray(start, Number.isFinite(length) ? start + length : raw.indexOf('endstream', start));
    const data = /\/FlateDecode/.test(m[2] ?? '') ? inflateSync(bytes).toString('latin1') : bytes.toString('latin1');
    streams.set(Number(m[1]), { dict: m[2] ?? '', data });
  }
  // Font object → its ToUnicode stream; font resource name → font object.
  const cmaps = new Map<number, Map<number, string>>();
  for (const m of raw.matchAll(/(\d+) 0 obj\s*<<((?:(?!endobj)[\s\S])*?)\/ToUnicode (\d+) 0 R/g)) {
    const stream = streams.get(Number(m[3]));
    if (stream) cmaps.set(Number(m[1]), toUnicode(stream.data));
  }
  const fontObject = new Map<string, number>();
  for (const m of raw.matchAll(/\/(F\d+) (\d+) 0 R/g)) fontObject.set(m[1] as string, Number(m[2]));
  let out = '';
  for (const { data } of streams.values()) {
    if (!/\bBT\b/.test(data)) continue;
    let cmap: Map<number, string> | undefined;
    for (const token of data.matchAll(
      /\/(F\d+) [\d.]+ Tf|\[((?:<[0-9A-Fa-f]*>|[^\]])*)\]\s*TJ|<([0-9A-Fa-f]*)>\s*Tj|\bET\b/g,
    )) {
      if (token[1]) cmap = cmaps.get(fontObject.get(token[1]) ?? -1);
      else if (token[0] === 'ET') out += '\n';
      else {
        const hex = token[3] ?? [...(token[2] ?? '').matchAll(/<([0-9A-Fa-f]*)>/g)].map((h) => h[1]).join('');
        for (let i = 0; i + 4 <= hex.length; i += 4) out += cmap?.get(parseInt(hex.slice(i, i + 4), 16)) ?? '';
      }
    }
  }
  return out.normalize('NFKC');
}

function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const text = (hex: string) => String.fromCharCode(...(hex.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)));
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const m of (block[1] ?? '').matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g))
      map.set(parseInt(m[1] as string, 16), text(m[2] as string));
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const m of (block[1] ?? '').matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]+>|\[[^\]]*\])/g)) {
      const from = parseInt(m[1] as string, 16);
      const to = parseInt(m[2] as string, 16);
      const target = m[3] as string;
      if (target.startsWith('[')) {
        [...target.matchAll(/<([0-9A-Fa-f]+)>/g)].forEach((h, k) => map.set(from + k, text(h[1] as string)));
      } else {
        const first = parseInt(target.slice(1, -1), 16);
        for (let code = from; code <= to; code++) map.set(code, String.fromCharCode(first + code - from));
      }
    }
  }
  return map;
}
