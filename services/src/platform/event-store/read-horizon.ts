/**
 * The read horizon of the SQL event store: one row, one column (`horizon`, an xid8), computed from the
 * statement's own snapshot, so that a reader taking only events whose `transaction_id` is below it (in
 * the same statement) never skips an event that commits later.
 *
 * Why it is sound: an event below the horizon was written by a transaction T with xid < horizon. Either
 * T had finished when the snapshot was taken (it is not among the snapshot's in-progress xids and is
 * below xmax), so its events are visible now or never; or T was in progress but is proven to be a
 * backend of ANOTHER database (`pg_stat_activity.backend_xid`), which cannot write this database's
 * `events`. Every transaction that can still append here has an xid at or above the horizon: it was in
 * progress and not attributed elsewhere (the minimum is taken over those), or it gets its xid later
 * (≥ xmax). Attribution errs one way only: an xid is counted as ours unless a backend of another database
 * shows it (xids are not reused while in progress, and a backend's database never changes), so a stale
 * or missing `pg_stat_activity` row only holds readers back a moment, as `pg_snapshot_xmin` always did.
 * Our own open transaction (a read inside a transaction that wrote) counts too, as it does in xmin.
 *
 * Why not `pg_snapshot_xmin` alone: xids are shared by every database of the server, so one open
 * transaction in any other database (another tenant, an analyst, a parallel test file) held every
 * Kesher reader back until it ended.
 *
 * On a hot standby the snapshot lists no in-progress xids (they are all "sub-xids" there), so the rule
 * falls back to xmin. PGlite (one backend, one database) runs the same statement: its snapshot has no
 * other in-progress transactions, so the horizon is xmax.
 */
export const HORIZON_SQL = `SELECT CASE WHEN pg_is_in_recovery() THEN pg_snapshot_xmin(snap.s)
  ELSE LEAST(pg_current_xact_id_if_assigned(), COALESCE(
    (SELECT min(xip) FROM pg_snapshot_xip(snap.s) AS xip
     WHERE NOT EXISTS (SELECT 1 FROM pg_stat_activity AS other
                       WHERE other.backend_xid = xip::xid AND other.datname <> current_database())),
    pg_snapshot_xmax(snap.s)))
  END AS horizon
  FROM (SELECT pg_current_snapshot() AS s) AS snap`;
