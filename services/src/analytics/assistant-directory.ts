import type { Queryable } from '@kesher/contracts/ports/projection';
import type { OwnerScope } from '@kesher/projections/analytics/shared/owner-scope';

export interface NamedAssistant {
  id: string;
  numericId: number;
  name: string;
  ownerId: string;
}

/**
 * The analytics read models key assistants by their internal id; the owner knows them by the numeric id
 * and the name (the assistants read model). A deleted assistant's figures stay, with no name.
 */
export function createAssistantDirectory(db: Queryable) {
  type Row = { id: string; numeric_id: number; name: string; owner_id: string };
  const named = (row: Row): NamedAssistant => ({
    id: row.id,
    numericId: row.numeric_id,
    name: row.name,
    ownerId: row.owner_id,
  });
  return {
    async byNumericId(scope: OwnerScope, numericId: number): Promise<NamedAssistant | undefined> {
      const { rows } =
        'ownerId' in scope
          ? await db.query<Row>(
              `SELECT id, numeric_id, name, owner_id FROM assistants WHERE numeric_id = $1 AND owner_id = $2`,
              [numericId, scope.ownerId],
            )
          : await db.query<Row>(`SELECT id, numeric_id, name, owner_id FROM assistants WHERE numeric_id = $1`, [
              numericId,
            ]);
      return rows[0] && named(rows[0]);
    },

    async byIds(ids: readonly string[]): Promise<Map<string, NamedAssistant>> {
      if (ids.length === 0) return new Map();
      const { rows } = await db.query<Row>(
        `SELECT id, numeric_id, name, owner_id FROM assistants WHERE id = ANY($1::text[])`,
        [[...new Set(ids)]],
      );
      return new Map(rows.map((row) => [row.id, named(row)]));
    },

    async count(scope: OwnerScope): Promise<number> {
      const { rows } =
        'ownerId' in scope
          ? await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM assistants WHERE owner_id = $1`, [
              scope.ownerId,
            ])
          : await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM assistants`);
      return Number(rows[0]?.n ?? 0);
    },
  };
}
