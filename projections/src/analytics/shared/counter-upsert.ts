import type { Queryable } from '@kesher/contracts/ports/projection';
import { rowsFrom, rowsParam, type SqlType } from './json-rows.js';

export interface CounterTable<Key extends string, Counter extends string> {
  table: string;
  keys: Readonly<Record<Key, SqlType>>;
  counters: Readonly<Record<Counter, SqlType>>;
}

/**
 * Sums a batch's increments per key in memory, then adds them to the table in one statement — the
 * shape of every daily counter table in analytics, so that a busy batch costs one round trip, not one
 * per event. Increments may be negative (a changed rating takes its old count back).
 */
export function counterBatch<Key extends string, Counter extends string>(spec: CounterTable<Key, Counter>) {
  const keyNames: Key[] = [];
  for (const name in spec.keys) keyNames.push(name);
  const counterNames: Counter[] = [];
  for (const name in spec.counters) counterNames.push(name);
  const rows = new Map<string, { key: Record<Key, string | number>; values: Map<Counter, number> }>();

  return {
    add(key: Record<Key, string | number>, increments: Partial<Record<Counter, number>>) {
      let id = '';
      for (const name of keyNames) id += `${key[name]}\u0000`;
      let row = rows.get(id);
      if (!row) {
        row = { key, values: new Map(counterNames.map((name) => [name, 0])) };
        rows.set(id, row);
      }
      // Only the increments given (most adds name one or two of a dozen counters); unknown names are ignored.
      for (const name in increments) {
        const value = row.values.get(name);
        if (value !== undefined) row.values.set(name, value + (increments[name] ?? 0));
      }
    },

    get size() {
      return rows.size;
    },

    async write(db: Queryable) {
      if (rows.size === 0) return;
      const columns = [...keyNames, ...counterNames];
      const types = [...keyNames.map((name) => spec.keys[name]), ...counterNames.map((name) => spec.counters[name])];
      const values = [...rows.values()].map((row) => [
        ...keyNames.map((name) => row.key[name]),
        ...counterNames.map((name) => row.values.get(name) ?? 0),
      ]);
      await db.query(
        `INSERT INTO ${spec.table} (${columns.join(', ')})
         ${rowsFrom(1, types)}
         ON CONFLICT (${keyNames.join(', ')}) DO UPDATE SET ${counterNames.map((name) => `${name} = ${spec.table}.${name} + excluded.${name}`).join(', ')}`,
        [rowsParam(values)],
      );
      rows.clear();
    },
  };
}
