-- The analysts' feed of every rider's changes (GET /v1/trips/changes) orders changes by the id of the
-- transaction that wrote them, and reads only those of transactions older than the oldest still running, which
-- have all ended: so a change can never appear behind a position already handed out.
--
-- Online on a large table: the column is added without a default (no rewrite) and new rows get the writing
-- transaction's id from the default set afterwards. Rows written before this migration keep NULL and are never
-- read by the feed, whose tokens all postdate it; the partial index leaves them out.
SET LOCAL lock_timeout = '1s';

ALTER TABLE trip_changes ADD COLUMN xid xid8;
ALTER TABLE trip_changes ALTER COLUMN xid SET DEFAULT pg_current_xact_id();
CREATE INDEX trip_changes_xid ON trip_changes (xid, rider_id, seq) WHERE xid IS NOT NULL;
