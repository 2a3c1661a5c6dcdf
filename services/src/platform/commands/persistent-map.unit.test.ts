import { describe, expect, it } from 'vitest';
import {
  emptyMap,
  fnv1a,
  mapDelete,
  mapEntries,
  mapGet,
  mapHas,
  mapKeys,
  mapSet,
  setAdd,
  type PersistentMap,
} from './persistent-map.js';
import { seededRandom } from '../../testing/seeded-random.js';

const hashes: Record<string, (key: string) => number> = {
  'FNV-1a': fnv1a,
  // Every key in one of three buckets: the paths for keys whose whole hashes are equal.
  'three hashes': (key) => key.length % 3,
  // Hashes that share all their low bits and differ only in the top two: the deepest branches.
  'differing in the top bits only': (key) => ((fnv1a(key) & 3) << 30) >>> 0,
  // The top level's last two slots, whose bit 31 is negative as a number (the children stay in bit order).
  'the last slots of a level': (key) => ((fnv1a(key) & 1 ? 31 : 30) | ((fnv1a(key) >>> 8) << 5)) >>> 0,
};

describe('persistent map', () => {
  for (const [name, hash] of Object.entries(hashes)) {
    it(`answers as a Map does over random sets and deletes, every earlier version unchanged (${name})`, () => {
      for (let seed = 1; seed <= 25; seed++) {
        const next = seededRandom(seed);
        let map: PersistentMap<number> = emptyMap(hash);
        let reference = new Map<string, number>();
        const versions: { map: PersistentMap<number>; reference: Map<string, number> }[] = [];
        for (let step = 0; step < 200; step++) {
          const key = `key-${Math.floor(next() * 60)}`.repeat(1 + Math.floor(next() * 2));
          if (next() < 0.35) {
            map = mapDelete(map, key);
            reference = new Map(reference);
            reference.delete(key);
          } else {
            const value = Math.floor(next() * 1000);
            map = mapSet(map, key, value);
            reference = new Map(reference).set(key, value);
          }
          versions.push({ map, reference });
        }
        for (const version of versions) {
          expect(version.map.size, `seed ${seed}`).toBe(version.reference.size);
          const entries = [...mapEntries(version.map)].sort(([a], [b]) => (a < b ? -1 : 1));
          expect(entries).toEqual([...version.reference].sort(([a], [b]) => (a < b ? -1 : 1)));
          const probes = ['key-1', 'key-2key-2', 'key-59', 'absent'];
          expect(probes.map((key) => [mapGet(version.map, key), mapHas(version.map, key)])).toEqual(
            probes.map((key) => [version.reference.get(key), version.reference.has(key)]),
          );
        }
      }
    });
  }

  it('leaves the map as it was when a key to delete is absent, and empties to no root', () => {
    const one = mapSet(emptyMap<string>(), 'a', 'x');
    expect(mapDelete(one, 'b')).toBe(one);
    const none = mapDelete(one, 'a');
    expect(none.size).toBe(0);
    expect(none.root).toBeUndefined();
    expect([...mapKeys(none)]).toEqual([]);
  });

  it('keeps ten thousand keys with a set of each costing a short path, not a copy of the whole', () => {
    let set = emptyMap<true>();
    for (let i = 0; i < 10_000; i++) set = setAdd(set, `file-${i}`);
    expect(set.size).toBe(10_000);
    expect(setAdd(set, 'file-42')).toBe(set);
    const root = set.root!;
    const grown = setAdd(set, 'file-new');
    // The new root shares every top-level child but the one on the new key's path.
    const shared = grown.root!.children.filter((child) => root.children.includes(child)).length;
    expect(shared).toBeGreaterThanOrEqual(root.children.length - 1);
  });
});
