/**
 * Whose figures a query reads: one owner's (every owner-facing call), or every owner's (an operator's
 * GraphQL queries). Queries take it explicitly, so no call can forget to scope.
 */
export type OwnerScope = { ownerId: string } | { allOwners: true };

export const ownerScope = (ownerId: string): OwnerScope => ({ ownerId });
export const ALL_OWNERS: OwnerScope = { allOwners: true };

/** A range of calendar days (UTC), both ends included, as `YYYY-MM-DD`. */
export interface DayRange {
  from: string;
  to: string;
}

/**
 * The WHERE clause of a per-day table: the owner (unless all), the days, and optionally one assistant.
 * Parameters are appended to `params`; the column names are the analytics tables' own.
 */
export function rangeFilter(
  scope: OwnerScope,
  range: DayRange | null,
  params: unknown[],
  options: { assistantId?: string | null; dayColumn?: string; prefix?: string } = {},
): string {
  const p = options.prefix ?? '';
  const clauses: string[] = [];
  if ('ownerId' in scope) {
    params.push(scope.ownerId);
    clauses.push(`${p}owner_id = $${params.length}`);
  }
  if (range) {
    params.push(range.from, range.to);
    clauses.push(`${p}${options.dayColumn ?? 'day'} BETWEEN $${params.length - 1}::date AND $${params.length}::date`);
  }
  if (options.assistantId != null) {
    params.push(options.assistantId);
    clauses.push(`${p}assistant_id = $${params.length}`);
  }
  return clauses.length ? clauses.join(' AND ') : 'TRUE';
}

/** Every day of a range, oldest first (for series with a point per day, zeros included). */
export function daysOf(range: DayRange): string[] {
  const out: string[] = [];
  for (
    let t = Date.parse(`${range.from}T00:00:00Z`), end = Date.parse(`${range.to}T00:00:00Z`);
    t <= end;
    t += 86_400_000
  )
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** `days` calendar days ending with the day of `now` (UTC). */
export function lastDays(now: Date, days: number): DayRange {
  const to = now.toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

/** A count as a number (Postgres sums of bigint arrive as strings). */
export const num = (value: unknown): number => (value == null ? 0 : Number(value));
