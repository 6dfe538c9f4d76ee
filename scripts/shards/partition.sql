-- Functions every partition database (trip_history_pNNN) defines, installed by scripts/lib/shards.sh after
-- `trip-history migrate`. The proxy's PL/Proxy functions of the same names call them: PL/Proxy runs
-- `SELECT ... FROM name(args)` on the partition it picked, so a name and its arguments are the contract.

-- The database the proxy reached for this rider: checks that PL/Proxy's choice is the placement's.
CREATE OR REPLACE FUNCTION trip_history_partition_name(rider_id bigint)
RETURNS text
LANGUAGE sql STABLE
AS $$
    SELECT current_database()::text
$$;

-- This partition's trips, one row, for the proxy's RUN ON ALL fan-out that returns one row per partition.
CREATE OR REPLACE FUNCTION trip_history_partition_trip_counts(OUT partition_name text, OUT trips bigint)
RETURNS SETOF record
LANGUAGE sql STABLE
AS $$
    SELECT current_database()::text, count(*) FROM trips
$$;
