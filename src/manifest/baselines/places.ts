import type { NodePath } from '../positions.js';

/**
 * Where the nodes of an effective document come from. A document a baseline selects is
 * merged with the baseline's values into a new spec (merge.ts); each node of it comes from
 * the document itself or from a baseline, and diagnostics, `explain` and plans must point at
 * the line that wrote it. The merge keeps the document's own items at their indexes (a
 * baseline's items come after them), so a node with no record is the document's, at the
 * same path; a baseline's node, and a merged node's keys that a baseline gave, are recorded.
 */

/** A node's place in a manifest document. */
export interface Place {
  file: string;
  doc: number;
  path: NodePath;
}

/** What is recorded of an effective node: its own place (absent: the document's, at its path), and keys given by a baseline. */
export interface NodeRecord {
  place?: Place;
  keys?: Map<string, Place>;
}

/** The places of every baseline node (shared by all the documents it selects) and of merged nodes. */
export class Provenance {
  /** Nodes of baselines' values, by their place in the baseline. */
  readonly baselineNodes = new WeakMap<object, Place>();
  /** Nodes the merge made. */
  readonly merged = new WeakMap<object, NodeRecord>();

  /** Records the place of every object and array below `value` (at `path` of a baseline document). */
  addBaseline(value: unknown, file: string, doc: number, path: (string | number)[]): void {
    if (value === null || typeof value !== 'object') return;
    this.baselineNodes.set(value, { file, doc, path });
    if (Array.isArray(value)) value.forEach((v, i) => this.addBaseline(v, file, doc, [...path, i]));
    else for (const [k, v] of Object.entries(value)) this.addBaseline(v, file, doc, [...path, k]);
  }

  /** The place of a node or key reached by `path` from `root` (whose own place is `rootPlace`). */
  placeAt(root: unknown, rootPlace: Place, path: NodePath): Place {
    let place = rootPlace;
    let rest: (string | number)[] = [];
    let node: unknown = root;
    for (const step of path) {
      const record = node !== null && typeof node === 'object' ? this.merged.get(node) : undefined;
      const child =
        node !== null && typeof node === 'object' ? (node as Record<string | number, unknown>)[step] : undefined;
      const own = this.ownPlace(child);
      const given = record?.keys?.get(String(step));
      if (own) {
        place = own;
        rest = [];
      } else if (given) {
        place = given;
        rest = [];
      } else rest.push(step);
      node = child;
    }
    return rest.length === 0 ? place : { file: place.file, doc: place.doc, path: [...place.path, ...rest] };
  }

  /** The recorded place of a node: a baseline's node, or a merged node made from baselines only. */
  ownPlace(node: unknown): Place | undefined {
    if (node === null || typeof node !== 'object') return undefined;
    return this.merged.get(node)?.place ?? this.baselineNodes.get(node);
  }
}
