import type { Pacer } from '../../core/pacer.js';
import { baselineKind } from '../../kinds/baseline.js';
import { kinds } from '../../kinds/index.js';
import type { KindDefinition } from '../../kinds/types.js';
import type { BuildOutput, DocumentBuilder, Json } from '../build-context.js';
import { kindPlans, type KindPlan } from '../kind-plans.js';
import type { Reporter } from '../reporter.js';
import { baselineTarget } from '../schema-baseline.js';
import type { SourcePosition } from '../types.js';
import { isItem, keyOf, SELECT, type AppliedOverride, type Baseline } from './merge.js';
import { itemStep } from './path.js';
import { Provenance, type Place } from './places.js';
import { Ancestry, nameOf, parentNamed, selectorText } from './selector.js';
import { countText } from '../../core/count-text.js';

/** Diagnostic codes of baselines (docs/manifests.md lists them). */
export const BaselineCodes = {
  /** A document's value differs from a baseline's without an override. */
  overrideMissing: 'SB_BASELINE_OVERRIDE',
  /** An override that no longer differs, or that no baseline sets (a warning). */
  staleOverride: 'SB_BASELINE_STALE_OVERRIDE',
  /** Two baselines set one value of one document. */
  conflict: 'SB_BASELINE_CONFLICT',
  /** A baseline or an override that cannot apply as written. */
  invalid: 'SB_BASELINE',
} as const;

/** What the load keeps of a document a baseline selected (or whose overrides it checked). */
export interface DocumentResolution {
  /** The document's address (`tenant/acme-corp`). */
  address: string;
  file: string;
  doc: number;
  /** The baselines that select it, by name, in the order they apply (by name). */
  baselines: readonly string[];
  /** The overrides that apply: where it differs from a baseline, and why. */
  overrides: readonly AppliedOverride[];
}

/** What selecting a document depends on: its labels and its ancestors' names by kind. */
export interface SelectionFacts {
  labels?: Readonly<Record<string, string>>;
  ancestors: Readonly<Record<string, string>>;
}

/** A message located in a baseline, said once for every document it concerns. */
interface SharedDiagnostic {
  severity: 'error' | 'warning';
  code: string;
  id: string;
  message: string;
  place: Place & { key?: boolean };
  /** In the order first met. */
  documents: Set<string>;
}

/**
 * The baselines of a load and the documents they select. While the documents are built, the
 * Baseline documents register here, the documents baselines may select wait until every
 * file is read (`defer`), and then each is merged with its baselines (resolve.ts). After the
 * load it answers where each value of each object comes from (`LoadResult.baselines`).
 */
export class BaselineSet {
  readonly provenance = new Provenance();
  readonly ancestry = new Ancestry();
  /** The document kind baselines apply to, and its plan. */
  readonly target: KindDefinition = baselineTarget(kinds);
  readonly targetPlan: KindPlan = kindPlans().get(this.target.kind) as KindPlan;
  readonly resolutions = new Map<string, DocumentResolution>();
  /**
   * What selecting each document depended on, kept when the load records its documents
   * (`--changed-since`: a changed baseline's selector, then and now, is checked against them).
   */
  readonly selections = new Map<string, SelectionFacts>();
  recordSelections = false;
  private readonly list: Baseline[] = [];
  private readonly byName = new Map<string, Baseline>();
  private readonly byDocument = new Map<string, Baseline>();
  private readonly shared = new Map<string, SharedDiagnostic>();
  private readonly waiting: (() => void)[] = [];
  private reporter: Reporter | undefined;

  /** The baselines, by name. */
  get baselines(): readonly Baseline[] {
    return this.list;
  }

  get(name: string): Baseline | undefined {
    return this.byName.get(name);
  }

  /** The baseline whose document is at this place (a value inherited from it). */
  atPlace(file: string, doc: number): Baseline | undefined {
    return this.byDocument.get(`${file}\u0000${doc}`);
  }

  /**
   * Set when the files are known to hold no Baseline document (export's check of the files
   * it wrote, LoadOptions.noBaselines): no baseline can come, so a document is merged (with
   * none) as its file is read instead of once every file is; a Baseline document is an error.
   */
  none = false;

  /** Documents of this kind are merged with their baselines. */
  takes(kind: string): boolean {
    return kind === this.target.kind;
  }

  /** Documents of this kind wait until every file is read (`defer`), unless no baseline can come. */
  waits(kind: string): boolean {
    return !this.none && this.takes(kind);
  }

  defer(work: () => void): void {
    this.waiting.push(work);
  }

  /**
   * Builds the documents that waited, with every baseline and ancestor known, then says what
   * concerns many. The documents are most of a large load's work: `pacer` gives the event
   * loop its turns between them, and a signal stops the load (src/core/pacer.ts).
   */
  async flush(out: BuildOutput, pacer: Pacer): Promise<void> {
    this.reporter = out.reporter;
    this.list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    this.learnAncestry(out);
    for (const work of this.waiting.splice(0)) {
      if (pacer.due()) await pacer.pause();
      work();
    }
    for (const d of this.shared.values()) {
      const [first, ...more] = [...d.documents];
      const which = more.length === 0 ? `${first}` : `${first} and ${countText(more.length)} more`;
      const message = `${d.message} (for ${which})`;
      if (d.severity === 'error') out.reporter.error(d.code, message, d.place);
      else out.reporter.warning(d.code, message, d.place);
    }
  }

  /**
   * A diagnostic at a place of a baseline, said once with the documents it concerns: `id`
   * says which findings are one (the message of the first is kept).
   */
  sharedDiagnostic(
    finding: { severity: 'error' | 'warning'; code: string; id: string; message: string },
    place: Place & { key?: boolean },
    document: string,
  ): void {
    const id = `${finding.severity}\u0000${finding.code}\u0000${finding.id}\u0000${place.file}\u0000${place.doc}\u0000${place.path.join('\u0000')}`;
    const known = this.shared.get(id);
    if (known) {
      known.documents.add(document);
    } else this.shared.set(id, { ...finding, place, documents: new Set([document]) });
  }

  /** The documents a baseline selected, by address. */
  selectedBy(name: string): string[] {
    return [...this.resolutions.values()].filter((r) => r.baselines.includes(name)).map((r) => r.address);
  }

  /** The baseline's selector as one line (`resellers: north; labels: offer=office`). */
  selectorOf(name: string): string {
    const baseline = this.byName.get(name);
    return baseline ? selectorText(baseline.selector) : '';
  }

  /** Registers a valid Baseline document (its builder, below). */
  add(baseline: Baseline, reporter: Reporter): boolean {
    if (this.none) {
      reporter.error(
        BaselineCodes.invalid,
        `${baselineKind.kind} ${baseline.name}: this load expects none (the files an export wrote hold none)`,
        { file: baseline.file, doc: baseline.doc, path: ['kind'] },
      );
      return false;
    }
    const known = this.byName.get(baseline.name);
    if (known) {
      const at = reporter.resolve({ file: known.file, doc: known.doc, path: ['metadata', 'name'] });
      reporter.error(
        BaselineCodes.invalid,
        `baseline ${baseline.name} is declared twice (first at ${at.file}:${at.line}:${at.column}): a baseline's name is unique`,
        { file: baseline.file, doc: baseline.doc, path: ['metadata', 'name'] },
      );
      return false;
    }
    if (!this.checkItems(baseline, this.targetPlan, baseline.values, ['spec', 'values'], reporter)) return false;
    this.list.push(baseline);
    this.byName.set(baseline.name, baseline);
    this.byDocument.set(`${baseline.file}\u0000${baseline.doc}`, baseline);
    this.provenance.addBaseline(baseline.values, baseline.file, baseline.doc, ['spec', 'values']);
    return true;
  }

  /**
   * What the schema cannot say of a baseline's items: a list item gives its identity or
   * `select`, not both and not neither; two items of one list have different identities.
   */
  private checkItems(
    baseline: Baseline,
    plan: KindPlan,
    item: Json,
    at: (string | number)[],
    reporter: Reporter,
  ): boolean {
    let ok = true;
    for (const [key, child] of plan.children ?? []) {
      const value = item[key];
      if (child.csv || value === undefined) continue;
      const identity = child.plan.form.identity;
      const seen = new Map<string, number>();
      const entries: [string | number, unknown][] = Array.isArray(value)
        ? value.map((v, i) => [i, v])
        : isItem(value)
          ? Object.entries(value)
          : [];
      for (const [index, entry] of entries) {
        if (!isItem(entry)) continue;
        const where = { file: baseline.file, doc: baseline.doc, path: [...at, key, index] };
        const given = identity.filter((name) => Object.hasOwn(entry, name));
        if (Array.isArray(value) && isItem(entry[SELECT])) {
          if (given.length > 0) {
            reporter.error(
              BaselineCodes.invalid,
              `an item gives either ${identity.join(' or ')} or ${SELECT}, not both`,
              { ...where, path: [...where.path, SELECT], key: true },
            );
            ok = false;
          }
        } else if (Array.isArray(value) && given.length === 0 && !identityDerived(child.plan)) {
          reporter.error(
            BaselineCodes.invalid,
            `an item gives its identity (${identity.join(' or ')}) or ${SELECT}`,
            where,
          );
          ok = false;
        } else {
          const identityText = keyOf(child.plan, entry, typeof index === 'string' ? index : undefined);
          const first = seen.get(identityText);
          if (first !== undefined) {
            reporter.error(
              BaselineCodes.invalid,
              `${key}${itemStep(identityText)} is given twice in this list (first at item ${String(first)})`,
              where,
            );
            ok = false;
          } else seen.set(identityText, typeof index === 'number' ? index : 0);
        }
        if (!this.checkItems(baseline, child.plan, entry, where.path, reporter)) ok = false;
      }
    }
    return ok;
  }

  /** Who is under whom, from the declared documents of the kinds a selector names. */
  private learnAncestry(out: BuildOutput): void {
    for (const [object, parent] of out.parents) {
      if (parent.name === undefined) continue;
      const name = nameOf(object);
      if (name !== undefined) this.ancestry.declare(object.kind, name, { kind: parent.kind, name: parent.name });
    }
  }

  /** The names of a document's ancestors by kind (its parent as its metadata names it, then up). */
  ancestorsOf(metadata: Json): Map<string, string> {
    return this.ancestry.of(parentNamed(this.target, metadata));
  }

  /** The file:line:col of a place of a manifest the load read. */
  position(place: Place & { key?: boolean }): SourcePosition {
    return this.reporter ? this.reporter.resolve(place) : { file: place.file, line: 1, column: 1 };
  }

  /** Where a baseline's document is (its name). */
  positionOf(baseline: Baseline): SourcePosition {
    return this.position({ file: baseline.file, doc: baseline.doc, path: ['metadata', 'name'] });
  }
}

/** The builder of Baseline documents: nothing is declared, the baseline is registered for the documents it selects. */
export const baselineDocument: DocumentBuilder = {
  address: (metadata) => baselineKind.address(String(metadata['name'])),
  build: (ctx, metadata, spec) => {
    ctx.out.baselines.add(
      {
        name: String(metadata['name']),
        address: baselineKind.address(String(metadata['name'])),
        file: ctx.file,
        doc: ctx.doc,
        selector: (spec['selector'] as Json | undefined) ?? {},
        values: (spec['values'] as Json | undefined) ?? {},
        sensitive: ctx.sensitive,
      },
      ctx.out.reporter,
    );
  },
};

/** The identity is formed from other fields when an item leaves it out (an address's full address). */
function identityDerived(plan: KindPlan): boolean {
  return plan.form.identity.some((name) => plan.derived.some((d) => d.name === name));
}
