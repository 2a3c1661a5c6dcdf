import { describe, expect, it } from 'vitest';
import {
  recentAdd,
  recentEntries,
  recentGet,
  recentHas,
  recentSet,
  recentUpdate,
  recentValues,
  type RecentFirst,
} from './recent-first-map.js';
import { seededRandom } from '../../testing/seeded-random.js';

describe('recent-first map', () => {
  it('answers as a Map does (newest key first), over random sets and updates, and every earlier version stays as it was', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = seededRandom(seed);
      let map: RecentFirst<number> = undefined;
      let reference = new Map<string, number>();
      const versions: { map: RecentFirst<number>; reference: Map<string, number> }[] = [];
      for (let step = 0; step < 120; step++) {
        const key = `k${Math.floor(next() * 30)}`;
        const value = Math.floor(next() * 1000);
        if (next() < 0.3) {
          map = recentUpdate(map, key, (old) => old + value);
          const old = reference.get(key);
          if (old !== undefined) reference = new Map(reference).set(key, old + value);
        } else {
          map = recentSet(map, key, value);
          reference = new Map(reference).set(key, value);
        }
        versions.push({ map, reference });
      }
      for (const version of versions) {
        // A Map keeps first-insertion order; the recent-first map the reverse of it.
        expect([...recentEntries(version.map)], `seed ${seed}`).toEqual([...version.reference].reverse());
        const keys = Array.from({ length: 30 }, (_, k) => `k${k}`);
        expect(keys.map((key) => [recentGet(version.map, key), recentHas(version.map, key)])).toEqual(
          keys.map((key) => [version.reference.get(key), version.reference.has(key)]),
        );
      }
    }
  });

  it('changes a recent key without copying the nodes behind it, and leaves an absent key’s map as it is', () => {
    let map: RecentFirst<string> = undefined;
    for (let i = 0; i < 1000; i++) map = recentSet(map, `run-${i}`, 'queued');
    const oldest = map;
    let behind = oldest!.rest;
    const changed = recentUpdate(map, 'run-999', () => 'completed')!;
    expect(changed.rest).toBe(behind);
    expect(recentGet(changed, 'run-999')).toBe('completed');
    expect(recentGet(oldest, 'run-999')).toBe('queued');
    behind = changed.rest!.rest;
    expect(recentSet(changed, 'run-998', 'completed').rest!.rest).toBe(behind);
    expect(recentUpdate(changed, 'never', () => 'x')).toBe(changed);
  });

  it('adds keys used as a set without looking for them; a repeated key is still one answer', () => {
    let ids: RecentFirst<true> = undefined;
    for (const id of ['a', 'b', 'a']) ids = recentAdd(ids, id, true);
    expect(recentHas(ids, 'a')).toBe(true);
    expect(recentHas(ids, 'c')).toBe(false);
    expect([...recentValues(ids)]).toHaveLength(3);
  });
});
