/**
 * An immutable map from strings for an aggregate's state, kept as a hash trie: 32 branches a level, each
 * branch holding only the children it has. Setting or deleting a key copies the one path to it (at most
 * seven small nodes), so folding a stream costs time in proportion to its length. A plain array or object
 * copied at every event made the fold quadratic: an assistant's stream holds one event per file or
 * crawled page it keeps (up to 10,000 on the largest plan), and folding 10,000 of them cost 464 ms, on
 * every page taken.
 *
 * Every version stays valid: a state kept by a caller never sees a later change. Iteration order is the
 * trie's, not the order keys were set in: use it for sets and lookups, not for anything ordered.
 */
export interface PersistentMap<V> {
  readonly size: number;
  /** Undefined while empty. */
  readonly root: Branch<V> | undefined;
  readonly hash: (key: string) => number;
}

interface Entry<V> {
  readonly key: string;
  readonly value: V;
}
/** Keys whose hashes are equal in all 32 bits. */
interface Bucket<V> {
  readonly hash: number;
  readonly entries: readonly Entry<V>[];
}
interface Branch<V> {
  /** Bit i set: the child for the five hash bits equal to i is in `children`, in bit order. */
  readonly bitmap: number;
  readonly children: readonly (Branch<V> | Bucket<V>)[];
}

const BITS = 5;
const MASK = 31;

/** FNV-1a, 32 bits: fast on the short ids kept here and spread enough for a trie. */
export function fnv1a(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

const isBranch = <V>(node: Branch<V> | Bucket<V>): node is Branch<V> => 'bitmap' in node;
const bitOf = (hash: number, shift: number) => 1 << ((hash >>> shift) & MASK);
const indexOf = (bitmap: number, bit: number) => bitCount(bitmap & (bit - 1));

/** The empty map; `hash` is for tests that need keys to collide. */
export function emptyMap<V>(hash: (key: string) => number = fnv1a): PersistentMap<V> {
  return { size: 0, root: undefined, hash };
}

export function mapGet<V>(map: PersistentMap<V>, key: string): V | undefined {
  const hash = map.hash(key);
  let node: Branch<V> | Bucket<V> | undefined = map.root;
  for (let shift = 0; node && isBranch(node); shift += BITS) {
    const bit = bitOf(hash, shift);
    node = node.bitmap & bit ? node.children[indexOf(node.bitmap, bit)] : undefined;
  }
  if (!node || node.hash !== hash) return undefined;
  return node.entries.find((entry) => entry.key === key)?.value;
}

export const mapHas = <V>(map: PersistentMap<V>, key: string): boolean => mapGet(map, key) !== undefined;

/** A branch holding two buckets of different hashes, as deep as their hashes first differ. */
function branchOf<V>(a: Bucket<V>, b: Bucket<V>, shift: number): Branch<V> {
  const bitA = bitOf(a.hash, shift);
  const bitB = bitOf(b.hash, shift);
  // Two different 32-bit hashes differ at some level by shift 30 (bits 30–31), so this ends.
  if (bitA === bitB) return { bitmap: bitA, children: [branchOf(a, b, shift + BITS)] };
  // In bit order, compared by position: bit 31 is negative as a number.
  const aFirst = ((a.hash >>> shift) & MASK) < ((b.hash >>> shift) & MASK);
  return { bitmap: bitA | bitB, children: aFirst ? [a, b] : [b, a] };
}

function withChild<V>(branch: Branch<V>, at: number, child: Branch<V> | Bucket<V>): Branch<V> {
  const children = branch.children.slice();
  children[at] = child;
  return { bitmap: branch.bitmap, children };
}

function setIn<V>(
  branch: Branch<V>,
  hash: number,
  entry: Entry<V>,
  shift: number,
): { branch: Branch<V>; added: boolean } {
  const bit = bitOf(hash, shift);
  const at = indexOf(branch.bitmap, bit);
  if (!(branch.bitmap & bit)) {
    const children = branch.children.slice();
    children.splice(at, 0, { hash, entries: [entry] });
    return { branch: { bitmap: branch.bitmap | bit, children }, added: true };
  }
  const child = branch.children[at]!;
  if (isBranch(child)) {
    const set = setIn(child, hash, entry, shift + BITS);
    return { branch: withChild(branch, at, set.branch), added: set.added };
  }
  if (child.hash !== hash)
    return { branch: withChild(branch, at, branchOf(child, { hash, entries: [entry] }, shift + BITS)), added: true };
  const known = child.entries.findIndex((e) => e.key === entry.key);
  const entries = child.entries.slice();
  if (known >= 0) entries[known] = entry;
  else entries.push(entry);
  return { branch: withChild(branch, at, { hash, entries }), added: known < 0 };
}

export function mapSet<V>(map: PersistentMap<V>, key: string, value: V): PersistentMap<V> {
  const hash = map.hash(key);
  const set = setIn(map.root ?? { bitmap: 0, children: [] }, hash, { key, value }, 0);
  return { size: map.size + (set.added ? 1 : 0), root: set.branch, hash: map.hash };
}

/** The branch without the key; the same branch when it is not there; undefined when nothing is left. */
function deleteIn<V>(branch: Branch<V>, hash: number, key: string, shift: number): Branch<V> | undefined | null {
  const bit = bitOf(hash, shift);
  if (!(branch.bitmap & bit)) return null;
  const at = indexOf(branch.bitmap, bit);
  const child = branch.children[at]!;
  let replaced: Branch<V> | Bucket<V> | undefined;
  if (isBranch(child)) {
    const inner = deleteIn(child, hash, key, shift + BITS);
    if (inner === null) return null;
    replaced = inner;
  } else {
    if (child.hash !== hash || !child.entries.some((e) => e.key === key)) return null;
    const entries = child.entries.filter((e) => e.key !== key);
    replaced = entries.length > 0 ? { hash, entries } : undefined;
  }
  if (replaced) return withChild(branch, at, replaced);
  if (branch.children.length === 1) return undefined;
  const children = branch.children.slice();
  children.splice(at, 1);
  return { bitmap: branch.bitmap & ~bit, children };
}

export function mapDelete<V>(map: PersistentMap<V>, key: string): PersistentMap<V> {
  if (!map.root) return map;
  const root = deleteIn(map.root, map.hash(key), key, 0);
  if (root === null) return map;
  return { size: map.size - 1, root, hash: map.hash };
}

function* entriesOf<V>(node: Branch<V> | Bucket<V>): Generator<Entry<V>> {
  if (isBranch(node)) for (const child of node.children) yield* entriesOf(child);
  else yield* node.entries;
}

/** Every key, in the trie's order. */
export function* mapKeys<V>(map: PersistentMap<V>): Generator<string> {
  if (map.root) for (const entry of entriesOf(map.root)) yield entry.key;
}

/** Every key with its value, in the trie's order. */
export function* mapEntries<V>(map: PersistentMap<V>): Generator<[string, V]> {
  if (map.root) for (const entry of entriesOf(map.root)) yield [entry.key, entry.value];
}

/** A map of keys only, for sets. */
export type PersistentSet = PersistentMap<true>;
export const setAdd = (set: PersistentSet, key: string): PersistentSet =>
  mapHas(set, key) ? set : mapSet(set, key, true);
