/**
 * An immutable map for an aggregate's state, kept as a list with the most recently added key first.
 *
 * Why not an object or a Map copied on each change: a fold over a stream then copies the whole map once
 * per event, and reading a conversation of 400 questions cost more in copying than in everything else
 * (the thread's runs and message ids, a key each, copied at every event: quadratic in the stream's
 * length). Here adding a key costs one node, and changing a key costs a copy of the nodes in front of it
 * only, which for an aggregate is the run or message just added. Every version stays valid: a state
 * kept by a caller never sees a later change.
 *
 * Reading a key walks the list (O(n) for an old key, O(1) for a recent one); an aggregate decides once
 * per command, so a walk per decision is cheap where a copy per event was not.
 */
export interface RecentFirstMap<V> {
  readonly key: string;
  readonly value: V;
  readonly rest: RecentFirstMap<V> | undefined;
}

/** The empty map is `undefined`, so a state needs no constructor for it. */
export type RecentFirst<V> = RecentFirstMap<V> | undefined;

export function recentGet<V>(map: RecentFirst<V>, key: string): V | undefined {
  for (let node = map; node; node = node.rest) if (node.key === key) return node.value;
  return undefined;
}

export const recentHas = <V>(map: RecentFirst<V>, key: string): boolean => {
  for (let node = map; node; node = node.rest) if (node.key === key) return true;
  return false;
};

/** The map with `key` set to `value`: a new key goes in front, a known one is replaced where it is. */
export function recentSet<V>(map: RecentFirst<V>, key: string, value: V): RecentFirstMap<V> {
  const ahead: RecentFirstMap<V>[] = [];
  let node = map;
  while (node && node.key !== key) {
    ahead.push(node);
    node = node.rest;
  }
  if (!node) return { key, value, rest: map };
  let rebuilt: RecentFirstMap<V> = { key, value, rest: node.rest };
  for (let i = ahead.length - 1; i >= 0; i--) rebuilt = { key: ahead[i]!.key, value: ahead[i]!.value, rest: rebuilt };
  return rebuilt;
}

/**
 * The map with `key` in front, without looking for it first: for keys used as a set, where a repeat
 * (a redelivered message's id) changes nothing that `recentHas` answers.
 */
export const recentAdd = <V>(map: RecentFirst<V>, key: string, value: V): RecentFirstMap<V> => ({
  key,
  value,
  rest: map,
});

/** The map with `key` changed by `change`; the same map when the key is not there. */
export function recentUpdate<V>(map: RecentFirst<V>, key: string, change: (value: V) => V): RecentFirst<V> {
  const value = recentGet(map, key);
  return value === undefined ? map : recentSet(map, key, change(value));
}

/** Every value, the most recently added key first. */
export function* recentValues<V>(map: RecentFirst<V>): Generator<V> {
  for (let node = map; node; node = node.rest) yield node.value;
}

/** Every key with its value, the most recently added first. */
export function* recentEntries<V>(map: RecentFirst<V>): Generator<[string, V]> {
  for (let node = map; node; node = node.rest) yield [node.key, node.value];
}
