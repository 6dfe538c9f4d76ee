-- The proxy database (trip_history on the proxy server): PL/Proxy, the placement rule and the first proxy
-- functions. Installed by scripts/lib/shards.sh, which then defines the cluster `trips` itself (a SQL/MED
-- server of the plproxy foreign data wrapper with one option pN per partition, and a user mapping); each
-- statement here can run again.

CREATE EXTENSION IF NOT EXISTS plproxy;

-- The number of partitions of the cluster `trips`: its options p0...pN-1. PL/Proxy requires a power of two.
CREATE OR REPLACE FUNCTION trip_history_partition_count()
RETURNS integer
LANGUAGE plpgsql STABLE
AS $$
DECLARE
    partitions integer;
BEGIN
    SELECT count(*) INTO partitions
    FROM pg_foreign_server AS s CROSS JOIN LATERAL unnest(s.srvoptions) AS o(option)
    WHERE s.srvname = 'trips' AND o.option ~ '^p[0-9]+=';
    IF partitions = 0 OR partitions & (partitions - 1) <> 0 THEN
        RAISE EXCEPTION 'the cluster trips has % partitions, not a power of two', partitions;
    END IF;
    RETURN partitions;
END
$$;

-- The placement of riders, the one rule every component follows: partition = hashint8(rider_id) & (L - 1)
-- for L partitions, which is where PL/Proxy's `RUN ON hashint8(rider_id)` runs a call. Swift's
-- RiderPlacement (Sources/TripHistoryDomain/Sharding) is the same rule and is tested against this one.
-- PostgreSQL's PARTITION BY HASH places riders differently (a seeded 64-bit hash) and is not used.
CREATE OR REPLACE FUNCTION trip_history_partition(rider_id bigint)
RETURNS integer
LANGUAGE sql STABLE STRICT
AS $$
    SELECT hashint8(rider_id) & (trip_history_partition_count() - 1)
$$;

-- The name of the database that holds a rider's trips, asked of that database through PL/Proxy.
CREATE OR REPLACE FUNCTION trip_history_partition_name(rider_id bigint)
RETURNS text
LANGUAGE plproxy
AS $$
    CLUSTER 'trips';
    RUN ON hashint8(rider_id);
$$;

-- Every partition's trips, one row each, fetched in parallel (RUN ON ALL needs a set-returning function).
CREATE OR REPLACE FUNCTION trip_history_partition_trip_counts(OUT partition_name text, OUT trips bigint)
RETURNS SETOF record
LANGUAGE plproxy
AS $$
    CLUSTER 'trips';
    RUN ON ALL;
$$;

-- All trips: the partitions' counts added up on the proxy.
CREATE OR REPLACE FUNCTION trip_history_trip_count()
RETURNS bigint
LANGUAGE sql STABLE
AS $$
    SELECT coalesce(sum(trips), 0)::bigint FROM trip_history_partition_trip_counts()
$$;
