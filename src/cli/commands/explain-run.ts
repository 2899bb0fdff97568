/**
 * What `switchboard explain ADDRESS [PATH…]` prints (explain.ts registers it): an object's
 * effective desired state, and its subtree's, each field with where its value comes from:
 * the document that declares it, a baseline (`baselines/be-office.yaml:12:9`), or the
 * document's override of a baseline with its reason (docs/baselines.md). Reads the
 * manifests only: no server, no credentials. Exit 0, or 1 when the manifests have errors or
 * declare nothing at the address.
 */
import { DiagnosticsError, SwitchboardError, type SourcePosition } from '../../core/errors.js';
import {
  explain,
  loadManifests,
  type ExplainedField,
  type ExplainedObject,
  type Explanation,
} from '../../manifest/index.js';
import { didYouMean } from '../../manifest/suggest.js';
import { compact, safeText } from '../../plan/render-common.js';
import { SENSITIVE } from '../../plan/types.js';

export interface ExplainOptions {
  format: 'text' | 'json';
  cwd?: string;
  env?: Record<string, string | undefined>;
}

/** The explanation as the command prints it (testable without a process). */
export async function runExplain(address: string, paths: string[], options: ExplainOptions): Promise<string> {
  const loaded = await loadManifests(paths, { cwd: options.cwd, env: options.env });
  if (!loaded.ok) throw new DiagnosticsError(loaded.diagnostics);
  const explanation = explain(loaded.set, loaded.baselines, address);
  if (!explanation) {
    const addresses = loaded.set.objects.map((o) => o.address);
    throw new SwitchboardError(
      'SB_UNKNOWN_ADDRESS',
      `no object is declared at ${address}${didYouMean(address, addresses)}: give an address as plans show it (tenant/acme-corp, tenant/acme-corp/subscription/main)`,
    );
  }
  return options.format === 'json'
    ? `${JSON.stringify(explanationJson(explanation), null, 2)}\n`
    : renderText(explanation);
}

const at = (p: SourcePosition | undefined): string => (p ? `${p.file}:${p.line}:${p.column}` : '');

/** The JSON form: positions as `file:line:col`, sensitive values masked. */
function explanationJson(e: Explanation): unknown {
  return {
    document: e.document,
    baselines: e.baselines.map((b) => ({ name: b.name, source: at(b.position), selector: b.selector })),
    overrides: e.overrides.map(({ position, ...o }) => ({ ...o, source: at(position) })),
    objects: e.objects.map(({ position, fields, ...o }) => ({
      ...o,
      ...(position ? { source: at(position) } : {}),
      fields: Object.fromEntries(
        fields.map(({ name, position: fieldAt, value, sensitive, ...source }) => [
          name,
          { value: sensitive ? SENSITIVE : value, ...source, ...(fieldAt ? { source: at(fieldAt) } : {}) },
        ]),
      ),
    })),
  };
}

function renderText(e: Explanation): string {
  const lines: string[] = [];
  if (e.baselines.length === 0) lines.push(`${safeText(e.document)}: no baseline selects it.`);
  else {
    lines.push(`${safeText(e.document)} is selected by:`);
    for (const b of e.baselines)
      lines.push(`  baseline ${safeText(b.name)}  (${safeText(b.selector)})  ${at(b.position)}`);
  }
  if (e.overrides.length > 0) {
    lines.push('', 'Overrides (where it differs from its baselines):');
    for (const o of e.overrides) {
      const what = o.remove
        ? `leaves out baseline ${o.baseline}'s ${o.baselineValue === undefined ? 'item' : compact(o.baselineValue)}`
        : `${compact(o.value)} instead of ${compact(o.baselineValue)} (baseline ${o.baseline})`;
      lines.push(`  ${safeText(o.path)}: ${safeText(what)}`, `      reason: ${safeText(o.reason)}  ${at(o.position)}`);
    }
  }
  for (const object of e.objects) lines.push('', ...objectLines(object));
  return `${lines.join('\n')}\n`;
}

function objectLines(o: ExplainedObject): string[] {
  const from = o.baseline ? `  from baseline ${safeText(o.baseline)}` : '';
  const head = `${safeText(o.address)} (${safeText(o.kind)})${from}  ${at(o.position)}`;
  const width = Math.max(0, ...o.fields.map((f) => f.name.length));
  const values = o.fields.map((f) => (f.sensitive ? SENSITIVE : compact(f.value)));
  const valueWidth = Math.min(40, Math.max(0, ...values.map((v) => v.length)));
  return [
    head,
    ...o.fields.map(
      (f, i) => `  ${safeText(f.name).padEnd(width)}  ${(values[i] ?? '').padEnd(valueWidth)}  ${sourceText(f)}`,
    ),
  ];
}

function sourceText(f: ExplainedField): string {
  const where = at(f.position);
  if (f.from === 'baseline') return `${where}  baseline ${safeText(f.baseline ?? '')}`;
  if (f.from === 'override') {
    const instead = f.baselineValue === undefined ? '' : `, instead of ${compact(f.baselineValue)}`;
    return `${where}  override of baseline ${safeText(f.baseline ?? '')}${instead}: ${safeText(f.reason ?? '')}`;
  }
  return where;
}
