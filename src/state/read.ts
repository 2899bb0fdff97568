import { ApiError, ApiErrorCode } from '../api/errors.js';
import { MAX_LIST_READS } from '../api/pagination.js';
import { kindOf } from '../kinds/index.js';
import type { KindContext, LiveObject } from '../kinds/types.js';
import type { ListRead } from './collection-read.js';
import { ReadPass } from './read-pass.js';
import type { DesiredNode, LastApplied, ListingClient, LiveState } from './types.js';

/**
 * Reads the live objects the manifests touch (one {@link ReadPass}), and makes sure that no
 * create the plan will propose rests on a list that shifted while it was read.
 *
 * A list read page by page is checked for its count (src/api/pagination.ts), but a writer
 * that deletes one object and creates another between two pages keeps the count: an object
 * slides from page 2 onto page 1, unseen, and the plan would create it again. So every list
 * that took more than one request and that a planned create rests on (the list the object
 * was looked for in, and for a kind that cannot change parent, every list of that kind the
 * search went through), or that is known to lack an object, is read a second time. The same
 * ids twice in a row, each read without a duplicate and holding as many as its count said:
 * the first read was whole, since every id both hold was alive between the two reads, and
 * there were that many objects then (ids are never given again). Other ids: the
 * objects are read again with the second read in place of the first (other lists are not
 * read again), and checked the same way, at most {@link MAX_LIST_READS} reads of one list;
 * then the plan fails with `SB_API_LIST_CHANGED` naming the list. One-page lists, and lists
 * no create rests on, are never read twice (docs/reliability.md says what it costs).
 */
export class LiveReader {
  private pass: ReadPass;

  constructor(
    private readonly client: ListingClient,
    private readonly ctx: KindContext,
    private readonly lastApplied: LastApplied = new Map(),
  ) {
    this.pass = new ReadPass(client, ctx, lastApplied);
  }

  async read(desired: readonly DesiredNode[], kindOrder: readonly string[]): Promise<LiveState> {
    /** Reads of each list so far, counting the first. */
    const reads = new Map<string, number>();
    /** Lists a second read found unchanged. */
    const settled = new Set<string>();
    for (;;) {
      const live = await this.pass.read(desired, kindOrder);
      const candidates = this.restedOn(desired, live);
      if (candidates.size === 0) return live;
      const lists = await settledReads(this.pass.reads());
      const missed = this.pass.missedLists();
      const suspects = [...candidates].filter((key) => {
        const read = lists.get(key);
        return !settled.has(key) && read !== undefined && (missed.has(key) || read.pages > 1);
      });
      if (suspects.length === 0) return live;
      let changed = false;
      await Promise.all(
        suspects.map(async (key) => {
          const first = lists.get(key) as ListRead;
          const count = (reads.get(key) ?? 1) + 1;
          reads.set(key, count);
          const again = await this.pass.reread(kindOf(kindOfKey(key)), first.parent);
          if (sameIds(first.objects, again.objects)) {
            settled.add(key);
            return;
          }
          if (count >= MAX_LIST_READS) throw unsettled(first, count);
          lists.set(key, again);
          changed = true;
        }),
      );
      if (!changed) return live;
      this.pass = new ReadPass(this.client, this.ctx, this.lastApplied, lists);
    }
  }

  /**
   * The lists a planned create rests on, and the lists known to lack an object, by key. A
   * declared object the read did not bind (nor refuse) is created by the plan; one whose
   * parent is created too rests on no list.
   */
  private restedOn(desired: readonly DesiredNode[], live: LiveState): Set<string> {
    const refused = new Set((live.refusals ?? []).map((r) => r.address));
    const out = new Set<string>(this.pass.missedLists());
    const kindsSearched = new Set<string>();
    for (const node of desired) {
      if (live.byAddress.has(node.address) || refused.has(node.address)) continue;
      const kind = kindOf(node.kind);
      if (kind.assumedToExist || kind.unreadable) continue;
      const key = this.pass.lookedInFor(node.address);
      if (key !== undefined) out.add(key);
      // Looked for beyond its parent's list too (a kind that cannot move, a pinned id). This,
      // not `lookedInFor`, is what keeps such a create safe: its name can look found in another
      // parent's list and that object be claimed by another document, so no key is kept for it.
      // A kind whose address does not name its owner must be `fixedParent` (or pinned) for this.
      if (kind.fixedParent || node.pinnedId !== undefined) kindsSearched.add(kind.kind);
    }
    if (kindsSearched.size > 0)
      for (const key of this.pass.reads().keys()) if (kindsSearched.has(kindOfKey(key))) out.add(key);
    return out;
  }

  /**
   * The live objects of a kind under a live parent, listed once per run (a collection the
   * plan already read is not read again); for the checks made after the plan.
   */
  listUnderParent(kindName: string, parent: LiveObject): Promise<LiveObject[]> {
    return this.pass.listUnderParent(kindName, parent);
  }

  /** Every live object of a kind the caller can list, under every live parent (cached as above). */
  listAll(kindName: string): Promise<LiveObject[]> {
    return this.pass.listAll(kindName);
  }
}

/** The reads of a pass that succeeded (a list the platform refused is not carried: it is asked again). */
async function settledReads(reads: ReadonlyMap<string, Promise<ListRead>>): Promise<Map<string, ListRead>> {
  const out = new Map<string, ListRead>();
  const entries = [...reads];
  const results = await Promise.allSettled(entries.map(([, read]) => read));
  results.forEach((result, i) => {
    if (result.status === 'fulfilled') out.set((entries[i] as [string, Promise<ListRead>])[0], result.value);
  });
  return out;
}

function kindOfKey(key: string): string {
  return key.slice(0, key.indexOf('@'));
}

/** The same ids, none twice (an id read twice is an object a shift moved onto a later page). */
function sameIds(a: readonly LiveObject[], b: readonly LiveObject[]): boolean {
  if (a.length !== b.length) return false;
  const ids = new Set(a.map((o) => o.id));
  if (ids.size !== a.length || new Set(b.map((o) => o.id)).size !== b.length) return false;
  return b.every((o) => ids.has(o.id));
}

function unsettled(read: ListRead, reads: number): ApiError {
  const spec = read.spec;
  return new ApiError({
    code: ApiErrorCode.listChanged,
    method: 'GET',
    path: spec?.path ?? '',
    status: 200,
    retryable: false,
    detail:
      `the list "${spec?.itemsKey ?? ''}" changed while it was read (a second read found other objects, though ` +
      `the count stayed), ${reads} reads in a row: something is writing to it; no object is created from a list ` +
      'that may miss it. Run again when it is quiet',
    ...(spec?.role ? { role: spec.role } : {}),
  });
}
