/**
 * The read horizon of the SQL event store: one row, one column (`horizon`, an xid8), computed from the
 * statement's own snapshot, so that a reader taking only events whose `transaction_id` is below it (in
 * the same statement) never skips an event that commits later.
 *
 * The rule it rests on (enforced by `kesher_append_batch`, the only writer of `events`, event store
 * migration 002): a transaction that appends locks `streams` before it takes its transaction id. The
 * append is its transaction's first write, and its first write is to `streams` (an insert, or a row
 * locked FOR UPDATE), whose table lock Postgres takes before the row's xid; that lock is held to the end.
 *
 * Why it is sound: an event below the horizon was written by a transaction T with xid < horizon. Either
 * T had finished when the snapshot was taken (it is not among the snapshot's in-progress xids and is
 * below xmax), so its events are visible now or never; or T was in progress and is proven, after the
 * snapshot, to be a transaction still running that holds no lock on this database's `streams` or
 * `events`. T had its xid before the snapshot, so by the rule above it would have held such a lock since
 * then if it could append: it cannot. Every transaction that can still append here has an xid at or
 * above the horizon: it was in progress and not proven otherwise (the minimum is taken over those), or
 * it gets its xid later (≥ xmax).
 *
 * The proof, in two steps that must come in this order:
 * 1. `pg_locks`, gathered once (`locks`, materialized): T's xid lock names its backend (its virtual
 *    transaction), and none of that backend's locks is on `streams` or `events`.
 * 2. Then `pg_xact_status(T)` is still 'in progress' (a CASE, so it is asked only after step 1).
 * Step 2 is what makes step 1 mean anything. A committing transaction marks itself committed, then
 * releases its locks, not all at one instant (fast-path relation locks and the main lock table apart);
 * and Postgres gathers `pg_locks` fast path first, main table after. So a gathering can catch an
 * appender midway: no relation lock left, the xid lock still there. It has committed, but the
 * reader's snapshot (older) hides its events, and passing it over moves the reader past them for good.
 * Still in progress after the gathering means it had released nothing when gathered. A transaction that
 * ended meanwhile counts as an appender, so a race only holds readers back a moment, as
 * `pg_snapshot_xmin` always did. `read-horizon.stress.int.test.ts` races commits against reads: it lost
 * appends in every run without step 2, with one gathering or two (a correlated subquery over `pg_locks`
 * gathers twice, which widened the hole; a scale test's live projector had lost one append).
 * Our own open transaction (a read inside a transaction that wrote) counts too, as it does in xmin.
 *
 * Why not `pg_snapshot_xmin` alone: xids are shared by every database of the server, so one open
 * transaction in any other database (another tenant, an analyst, a parallel test file) held every
 * Kesher reader back until it ended; and in Kesher's own database, every projector transaction writing a
 * read model held back every reader, the relay that hands a chat turn to its worker included. Both are
 * running transactions without a lock on this database's `streams` or `events` (a relation lock of
 * another database names that database), so neither holds readers back any more.
 *
 * On a hot standby the snapshot lists no in-progress xids (they are all "sub-xids" there), so the rule
 * falls back to xmin. PGlite (one backend, one database) runs the same statement: its snapshot has no
 * other in-progress transactions, so the horizon is xmax and the locks are never looked at.
 */
export const HORIZON_SQL = `WITH locks AS MATERIALIZED (
    SELECT locktype, transactionid, mode, granted, virtualtransaction, database, relation FROM pg_locks)
  SELECT CASE WHEN pg_is_in_recovery() THEN pg_snapshot_xmin(snap.s)
  ELSE LEAST(pg_current_xact_id_if_assigned(), COALESCE(
    (SELECT min(xip) FROM pg_snapshot_xip(snap.s) AS xip
     WHERE CASE WHEN EXISTS (SELECT 1 FROM locks AS t
                             WHERE t.locktype = 'transactionid' AND t.transactionid = xip::xid AND t.mode = 'ExclusiveLock' AND t.granted
                               AND NOT EXISTS (SELECT 1 FROM locks AS r
                                               WHERE r.virtualtransaction = t.virtualtransaction AND r.locktype = 'relation'
                                                 AND r.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                                                 AND r.relation IN ('streams'::regclass, 'events'::regclass)))
                THEN pg_xact_status(xip) IS DISTINCT FROM 'in progress'
                ELSE true END),
    pg_snapshot_xmax(snap.s)))
  END AS horizon
  FROM (SELECT pg_current_snapshot() AS s) AS snap`;
