-- The proxy database (trip_history on the proxy server): PL/Proxy, the placement rule and the functions the
-- service calls, each the partition function of the same name (scripts/shards/partition.sql) run on the
-- rider's partition, or on every partition and merged here. Installed by scripts/lib/shards.sh after
-- scripts/shards/types.sql, which then defines the cluster `trips` itself (a SQL/MED server of the plproxy
-- foreign data wrapper with one option pN per partition, and a user mapping); each statement here can run
-- again.

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

-- The cluster the analysts' reads run on: `trips` (every partition on its shard's primary), or the one a
-- session names in `trip_history.read_cluster`, as the service's reader does (`trips_standby`, defined like
-- `trips` with each shard's standby preferred: docs/scaling.md). Riders' reads and every write stay on `trips`.
CREATE OR REPLACE FUNCTION trip_history_read_cluster()
RETURNS text
LANGUAGE sql STABLE
AS $$
    SELECT coalesce(nullif(current_setting('trip_history.read_cluster', true), ''), 'trips')
$$;

-- Whether each partition's server, on the cluster the session reads from, is a standby (in recovery).
CREATE OR REPLACE FUNCTION trip_history_partition_roles(OUT partition_name text, OUT in_recovery boolean)
RETURNS SETOF record
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
$$;

-- The rider's operations, each a call to the rider's one partition -----------------------------------------
-- Each has the name, arguments and result of the partition's function it calls (scripts/shards/partition.sql),
-- which is the service's statement of that name or the rider's write; `RUN ON hashint8(rider_id)` is the
-- placement. A call fails while the rider's shard fails over and leaves the other shards' calls alone.
-- The reads that return rows name their call `SELECT * FROM ...`: PL/Proxy's own would select each column
-- cast to its type (`id::int8, ...`), which the partition parses and plans on every call, since PL/Proxy sends
-- each call unprepared (a sixth of a capped shard's CPU per read of a 25-column page). PL/Proxy takes the
-- columns by name.

CREATE OR REPLACE FUNCTION trips_older_v2(
    rider_id bigint, from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[],
    lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON hashint8(rider_id);
    SELECT * FROM public.trips_older_v2(rider_id, from_at, to_at, key_at, key_id, statuses, lim);
$$;

CREATE OR REPLACE FUNCTION trips_newer_v2(
    rider_id bigint, from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[],
    lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON hashint8(rider_id);
    SELECT * FROM public.trips_newer_v2(rider_id, from_at, to_at, key_at, key_id, statuses, lim);
$$;

CREATE OR REPLACE FUNCTION trips_count_v1(
    rider_id bigint, from_at timestamptz, to_at timestamptz, statuses text[], lim bigint
) RETURNS bigint
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON hashint8(rider_id);
$$;

-- The detail; the receipt route reads the same statement.
CREATE OR REPLACE FUNCTION trips_by_id_v2(id bigint, rider_id bigint)
RETURNS SETOF trip_history_trip_detail
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON hashint8(rider_id);
    SELECT * FROM public.trips_by_id_v2(id, rider_id);
$$;

CREATE OR REPLACE FUNCTION trips_export_batch_v1(rider_id bigint, key_at timestamptz, key_id bigint, lim bigint)
RETURNS SETOF trip_history_trip_detail
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON hashint8(rider_id);
    SELECT * FROM public.trips_export_batch_v1(rider_id, key_at, key_id, lim);
$$;

CREATE OR REPLACE FUNCTION trip_changes_page_v2(rider_id bigint, after_seq bigint, lim bigint)
RETURNS SETOF trip_history_change
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON hashint8(rider_id);
    SELECT * FROM public.trip_changes_page_v2(rider_id, after_seq, lim);
$$;

CREATE OR REPLACE FUNCTION trip_changes_last_v1(rider_id bigint)
RETURNS SETOF bigint
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON hashint8(rider_id);
$$;

-- Records a trip on the rider's partition, the idempotency key checked there: a key is unique per caller and
-- rider, so a key reused with another rider is checked on that rider's partition and records a second trip.
CREATE OR REPLACE FUNCTION trip_history_record_trip(
    rider_id bigint, status text, product text, city text, time_zone text, requested_at timestamptz,
    started_at timestamptz, completed_at timestamptz, pickup_lat double precision, pickup_lon double precision,
    pickup_address text, dropoff_lat double precision, dropoff_lon double precision, dropoff_address text,
    distance_m bigint, duration_s bigint, fare_amount_minor bigint, fare_currency text,
    fare_breakdown text, payment_method text, payment_brand text, payment_last4 text,
    driver_first_name text, vehicle_make text, vehicle_model text, vehicle_color text, vehicle_plate text,
    route_polyline text,
    idempotency_scope text, idempotency_key text, idempotency_fingerprint text,
    OUT replayed boolean, OUT trip trip_history_trip_detail
) RETURNS record
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON hashint8(rider_id);
$$;

CREATE OR REPLACE FUNCTION trip_history_record_adjustment(
    rider_id bigint, trip_id bigint, checked_version integer, kind text, amount_minor bigint, reason text,
    idempotency_scope text, idempotency_key text, idempotency_fingerprint text,
    OUT replayed boolean, OUT trip trip_history_trip_detail
) RETURNS record
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON hashint8(rider_id);
$$;

CREATE OR REPLACE FUNCTION trip_history_erase_rider(
    rider_id bigint, requested_by text, OUT erased_at_us bigint, OUT trips bigint, OUT adjustments bigint
) RETURNS record
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON hashint8(rider_id);
$$;

-- After a write's call, on the same rider's partition: the write is held there and a standby has flushed it.
CREATE OR REPLACE FUNCTION trip_history_await_standby_copy(
    rider_id bigint, trip_id bigint, version integer, timeout_ms integer
) RETURNS boolean
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON hashint8(rider_id);
$$;

-- Read-your-writes on the shards' standbys: a rider's reads where the session reads from
-- (trip_history_read_cluster(): each shard's standby for the service's reader), refused with THLAG by a server
-- that has not replayed the position the call names (scripts/shards/partition.sql), which the service then
-- reads from the primaries. The positions: the rider's partition's after a write, every partition's at once.
CREATE OR REPLACE FUNCTION trip_history_write_position(
    rider_id bigint, OUT lsn pg_lsn, OUT system_identifier bigint, OUT moves integer
) RETURNS record
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON hashint8(rider_id);
$$;

CREATE OR REPLACE FUNCTION trip_history_write_positions(
    OUT partition integer, OUT lsn pg_lsn, OUT system_identifier bigint, OUT moves integer
) RETURNS SETOF record
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON ALL;
$$;

CREATE OR REPLACE FUNCTION trips_older_v2_replayed(
    lsn pg_lsn, system_identifier bigint, moves integer, rider_id bigint, from_at timestamptz, to_at timestamptz,
    key_at timestamptz, key_id bigint, statuses text[], lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.trips_older_v2_replayed(
        lsn, system_identifier, moves, rider_id, from_at, to_at, key_at, key_id, statuses, lim);
$$;

CREATE OR REPLACE FUNCTION trips_newer_v2_replayed(
    lsn pg_lsn, system_identifier bigint, moves integer, rider_id bigint, from_at timestamptz, to_at timestamptz,
    key_at timestamptz, key_id bigint, statuses text[], lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.trips_newer_v2_replayed(
        lsn, system_identifier, moves, rider_id, from_at, to_at, key_at, key_id, statuses, lim);
$$;

CREATE OR REPLACE FUNCTION trips_count_v1_replayed(
    lsn pg_lsn, system_identifier bigint, moves integer, rider_id bigint, from_at timestamptz, to_at timestamptz,
    statuses text[], lim bigint
) RETURNS bigint
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
$$;

CREATE OR REPLACE FUNCTION trips_by_id_v2_replayed(
    lsn pg_lsn, system_identifier bigint, moves integer, id bigint, rider_id bigint
) RETURNS SETOF trip_history_trip_detail
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.trips_by_id_v2_replayed(lsn, system_identifier, moves, id, rider_id);
$$;

CREATE OR REPLACE FUNCTION trips_export_batch_v1_replayed(
    lsn pg_lsn, system_identifier bigint, moves integer, rider_id bigint, key_at timestamptz, key_id bigint,
    lim bigint
) RETURNS SETOF trip_history_trip_detail
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.trips_export_batch_v1_replayed(lsn, system_identifier, moves, rider_id, key_at, key_id, lim);
$$;

-- The analysts' fan-out: every partition in parallel ---------------------------------------------------

-- Each analyst statement's partition function of the same name (scripts/shards/partition.sql), run on every
-- partition (on the rider's one with a rider), for every combination of the optional filters; the service merges
-- their rows (AnalystFanOut).

CREATE OR REPLACE FUNCTION analyst_trips_older_c0p0r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_older_c0p0r0_v2(from_at, to_at, key_at, key_id, statuses, lim);
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p0r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_newer_c0p0r0_v2(from_at, to_at, key_at, key_id, statuses, lim);
$$;

CREATE OR REPLACE FUNCTION analyst_count_c0p0r0_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], lim bigint
) RETURNS SETOF bigint
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_c0p0r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[]
) RETURNS SETOF trip_history_stats_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_stats_parts_c0p0r0_v1(granularity, time_zone, from_at, to_at, statuses);
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c0p0r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[]
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_stats_parts_by_city_c0p0r0_v1(
        granularity, time_zone, from_at, to_at, statuses
    );
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c0p0r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[]
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_stats_parts_by_product_c0p0r0_v1(
        granularity, time_zone, from_at, to_at, statuses
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c0p0r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[],
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_older_c0p0r1_v2(from_at, to_at, key_at, key_id, statuses, rider_id, lim);
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p0r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[],
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_newer_c0p0r1_v2(from_at, to_at, key_at, key_id, statuses, rider_id, lim);
$$;

CREATE OR REPLACE FUNCTION analyst_count_c0p0r1_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], rider_id bigint, lim bigint
) RETURNS SETOF bigint
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_c0p0r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], rider_id bigint
) RETURNS SETOF trip_history_stats_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_stats_parts_c0p0r1_v1(
        granularity, time_zone, from_at, to_at, statuses, rider_id
    );
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c0p0r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_stats_parts_by_city_c0p0r1_v1(
        granularity, time_zone, from_at, to_at, statuses, rider_id
    );
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c0p0r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_stats_parts_by_product_c0p0r1_v1(
        granularity, time_zone, from_at, to_at, statuses, rider_id
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c0p1r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_older_c0p1r0_v2(from_at, to_at, key_at, key_id, statuses, product, lim);
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p1r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_newer_c0p1r0_v2(from_at, to_at, key_at, key_id, statuses, product, lim);
$$;

CREATE OR REPLACE FUNCTION analyst_count_c0p1r0_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], product text, lim bigint
) RETURNS SETOF bigint
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_c0p1r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], product text
) RETURNS SETOF trip_history_stats_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_stats_parts_c0p1r0_v1(
        granularity, time_zone, from_at, to_at, statuses, product
    );
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c0p1r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], product text
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_stats_parts_by_city_c0p1r0_v1(
        granularity, time_zone, from_at, to_at, statuses, product
    );
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c0p1r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], product text
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_stats_parts_by_product_c0p1r0_v1(
        granularity, time_zone, from_at, to_at, statuses, product
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c0p1r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_older_c0p1r1_v2(
        from_at, to_at, key_at, key_id, statuses, product, rider_id, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p1r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_newer_c0p1r1_v2(
        from_at, to_at, key_at, key_id, statuses, product, rider_id, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_count_c0p1r1_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], product text, rider_id bigint, lim bigint
) RETURNS SETOF bigint
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_c0p1r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], product text,
    rider_id bigint
) RETURNS SETOF trip_history_stats_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_stats_parts_c0p1r1_v1(
        granularity, time_zone, from_at, to_at, statuses, product, rider_id
    );
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c0p1r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], product text,
    rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_stats_parts_by_city_c0p1r1_v1(
        granularity, time_zone, from_at, to_at, statuses, product, rider_id
    );
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c0p1r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], product text,
    rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_stats_parts_by_product_c0p1r1_v1(
        granularity, time_zone, from_at, to_at, statuses, product, rider_id
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c1p0r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_older_c1p0r0_v2(from_at, to_at, key_at, key_id, statuses, city, lim);
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p0r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_newer_c1p0r0_v2(from_at, to_at, key_at, key_id, statuses, city, lim);
$$;

CREATE OR REPLACE FUNCTION analyst_count_c1p0r0_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], city text, lim bigint
) RETURNS SETOF bigint
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_c1p0r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text
) RETURNS SETOF trip_history_stats_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_stats_parts_c1p0r0_v1(granularity, time_zone, from_at, to_at, statuses, city);
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c1p0r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_stats_parts_by_city_c1p0r0_v1(
        granularity, time_zone, from_at, to_at, statuses, city
    );
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c1p0r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_stats_parts_by_product_c1p0r0_v1(
        granularity, time_zone, from_at, to_at, statuses, city
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c1p0r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_older_c1p0r1_v2(
        from_at, to_at, key_at, key_id, statuses, city, rider_id, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p0r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_newer_c1p0r1_v2(
        from_at, to_at, key_at, key_id, statuses, city, rider_id, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_count_c1p0r1_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], city text, rider_id bigint, lim bigint
) RETURNS SETOF bigint
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_c1p0r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    rider_id bigint
) RETURNS SETOF trip_history_stats_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_stats_parts_c1p0r1_v1(
        granularity, time_zone, from_at, to_at, statuses, city, rider_id
    );
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c1p0r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_stats_parts_by_city_c1p0r1_v1(
        granularity, time_zone, from_at, to_at, statuses, city, rider_id
    );
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c1p0r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_stats_parts_by_product_c1p0r1_v1(
        granularity, time_zone, from_at, to_at, statuses, city, rider_id
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c1p1r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_older_c1p1r0_v2(
        from_at, to_at, key_at, key_id, statuses, city, product, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p1r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_newer_c1p1r0_v2(
        from_at, to_at, key_at, key_id, statuses, city, product, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_count_c1p1r0_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], city text, product text, lim bigint
) RETURNS SETOF bigint
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_c1p1r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    product text
) RETURNS SETOF trip_history_stats_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_stats_parts_c1p1r0_v1(
        granularity, time_zone, from_at, to_at, statuses, city, product
    );
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c1p1r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    product text
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_stats_parts_by_city_c1p1r0_v1(
        granularity, time_zone, from_at, to_at, statuses, city, product
    );
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c1p1r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    product text
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_stats_parts_by_product_c1p1r0_v1(
        granularity, time_zone, from_at, to_at, statuses, city, product
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c1p1r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_older_c1p1r1_v2(
        from_at, to_at, key_at, key_id, statuses, city, product, rider_id, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p1r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_newer_c1p1r1_v2(
        from_at, to_at, key_at, key_id, statuses, city, product, rider_id, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_count_c1p1r1_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], city text, product text, rider_id bigint,
    lim bigint
) RETURNS SETOF bigint
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_c1p1r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    product text, rider_id bigint
) RETURNS SETOF trip_history_stats_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_stats_parts_c1p1r1_v1(
        granularity, time_zone, from_at, to_at, statuses, city, product, rider_id
    );
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c1p1r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    product text, rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_stats_parts_by_city_c1p1r1_v1(
        granularity, time_zone, from_at, to_at, statuses, city, product, rider_id
    );
$$;

CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c1p1r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    product text, rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_stats_parts_by_product_c1p1r1_v1(
        granularity, time_zone, from_at, to_at, statuses, city, product, rider_id
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c0p0r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_older_c0p0r0_ledger_v1(from_at, to_at, key_at, key_id, statuses, lim);
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p0r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_newer_c0p0r0_ledger_v1(from_at, to_at, key_at, key_id, statuses, lim);
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c0p0r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[],
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_older_c0p0r1_ledger_v1(
        from_at, to_at, key_at, key_id, statuses, rider_id, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p0r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[],
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_newer_c0p0r1_ledger_v1(
        from_at, to_at, key_at, key_id, statuses, rider_id, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c0p1r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_older_c0p1r0_ledger_v1(
        from_at, to_at, key_at, key_id, statuses, product, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p1r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_newer_c0p1r0_ledger_v1(
        from_at, to_at, key_at, key_id, statuses, product, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c0p1r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_older_c0p1r1_ledger_v1(
        from_at, to_at, key_at, key_id, statuses, product, rider_id, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p1r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_newer_c0p1r1_ledger_v1(
        from_at, to_at, key_at, key_id, statuses, product, rider_id, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c1p0r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_older_c1p0r0_ledger_v1(
        from_at, to_at, key_at, key_id, statuses, city, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p0r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_newer_c1p0r0_ledger_v1(
        from_at, to_at, key_at, key_id, statuses, city, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c1p0r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_older_c1p0r1_ledger_v1(
        from_at, to_at, key_at, key_id, statuses, city, rider_id, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p0r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_newer_c1p0r1_ledger_v1(
        from_at, to_at, key_at, key_id, statuses, city, rider_id, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c1p1r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_older_c1p1r0_ledger_v1(
        from_at, to_at, key_at, key_id, statuses, city, product, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p1r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
    SELECT * FROM public.analyst_trips_newer_c1p1r0_ledger_v1(
        from_at, to_at, key_at, key_id, statuses, city, product, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_older_c1p1r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_older_c1p1r1_ledger_v1(
        from_at, to_at, key_at, key_id, statuses, city, product, rider_id, lim
    );
$$;

CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p1r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON hashint8(rider_id);
    SELECT * FROM public.analyst_trips_newer_c1p1r1_ledger_v1(
        from_at, to_at, key_at, key_id, statuses, city, product, rider_id, lim
    );
$$;

-- Every partition's estimate of the trips an analyst filter matches; the service adds them up.
CREATE OR REPLACE FUNCTION trip_history_analyst_estimate(
    from_at timestamptz, to_at timestamptz, statuses text[], city text, product text, rider_id bigint
) RETURNS SETOF bigint
LANGUAGE plproxy AS $$
    CLUSTER trip_history_read_cluster();
    RUN ON ALL;
$$;

-- Replaced by analyst_stats_parts_c1p0r0_v1.
DROP FUNCTION IF EXISTS trip_history_stats_parts_c1p0r0(text, text, timestamptz, timestamptz, text[], text);

-- Replaced by the service's merge of the generic analyst functions above (AnalystFanOut): a city's pages, count
-- and stats, once kept here for psql.
DROP FUNCTION IF EXISTS trip_history_city_trips_older(timestamptz, timestamptz, timestamptz, bigint, text[], text, bigint);
DROP FUNCTION IF EXISTS trip_history_city_trips_newer(timestamptz, timestamptz, timestamptz, bigint, text[], text, bigint);
DROP FUNCTION IF EXISTS trip_history_city_count(timestamptz, timestamptz, text[], text, bigint);
DROP FUNCTION IF EXISTS trip_history_city_stats(text, text, timestamptz, timestamptz, text[], text);
DROP FUNCTION IF EXISTS trip_history_bigint_or_null(numeric);

-- The analysts' feed: every partition's page after its own position, and every partition's position for now,
-- each row naming its partition and the server it is on (scripts/shards/partition.sql). The service merges them
-- and keeps a position per partition in its token.
CREATE OR REPLACE FUNCTION trip_history_analyst_changes(
    after_xids text[], after_riders bigint[], after_seqs bigint[], lim bigint
) RETURNS SETOF trip_history_analyst_change
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON ALL;
$$;

CREATE OR REPLACE FUNCTION trip_history_analyst_feed_now(
    OUT partition integer, OUT system_identifier bigint, OUT moves integer, OUT oldest_xid bigint
) RETURNS SETOF record
LANGUAGE plproxy AS $$
    CLUSTER 'trips';
    RUN ON ALL;
$$;
