import { randomBytes } from 'node:crypto';

/**
 * A map from strings to numbers (a routing table's row numbers by key) for a million
 * entries: open addressing over a typed array of slots, the keys, their hashes and values
 * in arrays by insertion order. A CSV's million keys are fresh strings, which V8's Map
 * hashes on insert, keeps an entry object for, and re-inserts every time it grows: loading
 * the routing benchmark's 1,000,000-row CSV took 1.4 s with a Map, 1.0 s with this. It
 * iterates in insertion order, as a Map does, and is a ReadonlyMap to whoever reads it.
 *
 * The keys come from files a pull request can write: the hash is seeded at random per
 * process and its bits mixed (see {@link keyHash}), so no file can choose keys that share
 * one probe sequence, as it could against a fixed hash (a CSV of 100,000 such keys would
 * take minutes to load). What it holds and the order it gives do not depend on the seed.
 * Values are integers from 0 to 2^31 - 2 (they are stored as 32-bit integers).
 */
export class StringIndex implements ReadonlyMap<string, number> {
  /** Per slot: 1 + the position of its key in `keys`, or 0 when empty. */
  private slots = new Int32Array(0);
  /** By position, in the order keys were first set: the key, its hash, its value. */
  private keys_: string[] = [];
  private hashes: Int32Array<ArrayBuffer>;
  private values_: Int32Array<ArrayBuffer>;

  constructor(expected = 8) {
    this.hashes = new Int32Array(Math.max(8, expected));
    this.values_ = new Int32Array(Math.max(8, expected));
    this.allocate(slotsFor(expected));
  }

  get size(): number {
    return this.keys_.length;
  }

  get(key: string): number | undefined {
    const at = this.find(key, keyHash(SEED, key));
    return at < 0 ? undefined : this.values_[at];
  }

  has(key: string): boolean {
    return this.find(key, keyHash(SEED, key)) >= 0;
  }

  /** Sets the key's value; a key set again keeps its place in the order, as in a Map. */
  set(key: string, value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > MAX_VALUE) throw new RangeError(`StringIndex value ${value}`);
    const hash = keyHash(SEED, key);
    const known = this.find(key, hash);
    if (known >= 0) {
      this.values_[known] = value;
      return this;
    }
    const at = this.keys_.length;
    if ((at + 1) * 2 > this.slots.length) this.allocate(this.slots.length * 2);
    if (at === this.hashes.length) {
      this.hashes = grown(this.hashes);
      this.values_ = grown(this.values_);
    }
    this.keys_.push(key);
    this.hashes[at] = hash;
    this.values_[at] = value;
    this.place(at);
    return this;
  }

  clear(): void {
    this.keys_ = [];
    this.hashes = new Int32Array(8);
    this.values_ = new Int32Array(8);
    this.allocate(slotsFor(8));
  }

  *entries(): MapIterator<[string, number]> {
    for (let at = 0; at < this.keys_.length; at++) yield [this.keys_[at] as string, this.values_[at] as number];
  }

  *keys(): MapIterator<string> {
    for (let at = 0; at < this.keys_.length; at++) yield this.keys_[at] as string;
  }

  *values(): MapIterator<number> {
    for (let at = 0; at < this.keys_.length; at++) yield this.values_[at] as number;
  }

  [Symbol.iterator](): MapIterator<[string, number]> {
    return this.entries();
  }

  forEach(callback: (value: number, key: string, map: ReadonlyMap<string, number>) => void, thisArg?: unknown): void {
    for (let at = 0; at < this.keys_.length; at++)
      callback.call(thisArg, this.values_[at] as number, this.keys_[at] as string, this);
  }

  /** The position of `key`, or -1. */
  private find(key: string, hash: number): number {
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const at = (this.slots[slot] as number) - 1;
      if (at < 0) return -1;
      if (this.hashes[at] === hash && this.keys_[at] === key) return at;
    }
  }

  /** Puts the key at position `at` in the first free slot of its probe sequence. */
  private place(at: number): void {
    const mask = this.slots.length - 1;
    let slot = (this.hashes[at] as number) & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = at + 1;
  }

  /** Makes `capacity` slots (a power of two) and puts every key back. */
  private allocate(capacity: number): void {
    this.slots = new Int32Array(capacity);
    for (let at = 0; at < this.keys_.length; at++) this.place(at);
  }
}

const MAX_VALUE = 2 ** 31 - 2;

/** The same numbers in an array twice as long. */
function grown(numbers: Int32Array): Int32Array<ArrayBuffer> {
  const longer = new Int32Array(numbers.length * 2);
  longer.set(numbers);
  return longer;
}

/** Slots for `count` keys at most half full: a power of two. */
function slotsFor(count: number): number {
  let slots = 16;
  while (slots < count * 2) slots *= 2;
  return slots;
}

/** This process's hash seed: unknown to whoever writes the keys. */
const SEED = randomBytes(4).readInt32LE(0);

/**
 * The 32-bit hash of a key under `seed`: FNV-1a over its UTF-16 code units from the seed,
 * then MurmurHash3's finaliser, so that every bit of the slot (its low bits) depends on
 * every bit of the state: FNV-1a's low bits alone depend only on the low bits of the codes.
 */
export function keyHash(seed: number, key: string): number {
  let hash = seed ^ 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash | 0; // as the Int32Array keeps it
}
