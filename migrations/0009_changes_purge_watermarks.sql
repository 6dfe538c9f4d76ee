-- Where the purge of the changes feed has reached, per feed: a `since` token whose position is behind it would
-- be answered without the purged entries, so the feeds refuse it (410 sync_token_expired) instead. The purge
-- of trip_changes (ExpiredRowPurger) moves both marks forward in the statement that deletes the rows, and a
-- feed page reads its mark in the statement that reads its entries, so the two never disagree.
--
-- A rider's feed: the highest sequence number of the rider's purged entries. One row per rider whose entries
-- were ever purged, written only by the purge, so the writers' counter rows are not touched.
CREATE TABLE rider_change_purges (
    rider_id       bigint PRIMARY KEY,
    purged_through bigint NOT NULL CHECK (purged_through > 0)
);

-- The analysts' feed: the highest position (transaction, rider, sequence) of the purged entries that feed
-- reads (those with a transaction id). One row at most.
CREATE TABLE analyst_change_purge (
    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    xid       xid8    NOT NULL,
    rider_id  bigint  NOT NULL,
    seq       bigint  NOT NULL
);
