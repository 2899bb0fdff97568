/**
 * How the HTML report groups a plan's changes: by top-level object, then by the object one
 * level below it that holds changes of its own (a tenant's subscription), then by
 * collection (a kind under one parent), deletes and replaces first at every level. Only
 * addresses are read (src/kinds/address-path.ts), never a kind's name.
 */
import { parentAddressOf } from '../../kinds/address-path.js';
import type { Change } from '../types.js';

/** One collection of the report, in display order; `items` are indices into the plan's changes. */
export interface ChangeGroup {
  /** The top-level object (or routing table) the changes belong to. */
  top: string;
  /** The object below `top` holding these changes (with changes below it), or null. */
  sub: string | null;
  /** The changes' parent address ('' for a top-level object's own change). */
  parent: string;
  kind: string;
  /** The changes of `top` or `sub` itself, shown first under its heading. */
  self: boolean;
  items: number[];
}

interface Bucket {
  first: number;
  destructive: boolean;
  /** Deletes and replaces, then the other changes, each in plan order. */
  risky: number[];
  items: number[];
  parent: string;
  kind: string;
}

interface Level {
  first: number;
  destructive: boolean;
  self: Bucket | undefined;
  collections: Map<string, Bucket>;
}

interface TopLevel extends Level {
  subs: Map<string, Level>;
}

const isDestructive = (change: Change): boolean => change.action === 'delete' || change.action === 'replace';

/** The groups of `changes`, in the order the report shows them. */
export function groupChanges(changes: readonly Change[]): ChangeGroup[] {
  const chains = ancestorChains(changes);
  const containers = new Set<string>();
  for (const chain of chains) for (const address of chain) containers.add(address);
  const tops = new Map<string, TopLevel>();
  changes.forEach((change, i) => {
    const chain = chains[i] ?? [];
    const top = chain[0] ?? change.address;
    const topLevel = levelOf(tops, top, i, () => ({ subs: new Map<string, Level>() })) as TopLevel;
    mark(topLevel, change, i);
    if (chain.length === 0) return void add(topLevel, 'self', '', change, i);
    if (chain.length === 1 && !containers.has(change.address)) return void add(topLevel, 'in', top, change, i);
    const sub = chain.length === 1 ? change.address : (chain[1] as string);
    const subLevel = levelOf(topLevel.subs, sub, i, () => ({}));
    mark(subLevel, change, i);
    if (sub === change.address) add(subLevel, 'self', top, change, i);
    else add(subLevel, 'in', chain.at(-1) as string, change, i);
  });
  const groups: ChangeGroup[] = [];
  for (const [top, level] of ordered(tops)) {
    emit(groups, top, null, level);
    for (const [sub, subLevel] of ordered(level.subs)) emit(groups, top, sub, subLevel);
  }
  return groups;
}

/** Each change's ancestors, from its top-level object down to its parent. */
function ancestorChains(changes: readonly Change[]): string[][] {
  const memo = new Map<string, string[]>();
  const chainOf = (address: string): string[] => {
    const known = memo.get(address);
    if (known) return known;
    const parent = parentAddressOf(address);
    const chain = parent === undefined ? [] : [...chainOf(parent), parent];
    memo.set(address, chain);
    return chain;
  };
  return changes.map((c) => chainOf(c.address));
}

function levelOf<L extends Level>(map: Map<string, L>, key: string, i: number, extra: () => object): L {
  let level = map.get(key);
  if (!level) {
    level = { first: i, destructive: false, self: undefined, collections: new Map(), ...extra() } as L;
    map.set(key, level);
  }
  return level;
}

function mark(level: Level, change: Change, i: number): void {
  level.first = Math.min(level.first, i);
  if (isDestructive(change)) level.destructive = true;
}

function add(level: Level, where: 'self' | 'in', parent: string, change: Change, i: number): void {
  const fresh = (): Bucket => ({ first: i, destructive: false, risky: [], items: [], parent, kind: change.kind });
  let bucket: Bucket;
  if (where === 'self') bucket = level.self ??= fresh();
  else {
    const key = `${parent}\u0000${change.kind}`;
    bucket = level.collections.get(key) ?? fresh();
    level.collections.set(key, bucket);
  }
  if (isDestructive(change)) {
    bucket.destructive = true;
    bucket.risky.push(i);
  } else bucket.items.push(i);
}

/** Deletes and replaces first, then plan order. */
function ordered<T extends { first: number; destructive: boolean }>(map: Map<string, T>): [string, T][] {
  return [...map].sort(([, a], [, b]) => Number(b.destructive) - Number(a.destructive) || a.first - b.first);
}

function emit(groups: ChangeGroup[], top: string, sub: string | null, level: Level): void {
  const buckets: [Bucket, boolean][] = [];
  if (level.self) buckets.push([level.self, true]);
  for (const [, bucket] of ordered(level.collections)) buckets.push([bucket, false]);
  for (const [bucket, self] of buckets) {
    const items = bucket.risky.length === 0 ? bucket.items : [...bucket.risky, ...bucket.items];
    groups.push({ top, sub, parent: bucket.parent, kind: bucket.kind, self, items });
  }
}
