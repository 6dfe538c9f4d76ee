-- What every partition database (trip_history_pNNN) holds beside the migrated schema, installed by
-- scripts/lib/shards.sh after `trip-history migrate`; each statement here can run again. The proxy's PL/Proxy
-- functions of the same names call these: PL/Proxy runs `SELECT ... FROM name(args)` on the partition it
-- picked, so a name, its arguments and its result columns are the contract.
--
-- Three kinds of functions:
-- - The service's statements, one function each, named after the statement's prepared name in
--   Sources/TripHistoryData, with its SQL as the body: the arguments are its `$1...$n` in order, so a
--   partition runs exactly what one node runs. A `-- statement:` line marks each one; its body (between the
--   `$statement$` quotes) is generated from the Swift statement by
--   `TRIP_HISTORY_WRITE_PARTITION_SQL=1 swift test --skip-build --filter ShardPartitionSQLTests`, and the
--   same test fails while a body differs from its statement. A statement whose version changed gets a function
--   of its new name (old and new coexist while the service rolls out).
--   The rider's reads, which the proxy calls directly, are LANGUAGE plpgsql: the statement is the body's one
--   `RETURN QUERY` (or `RETURN (...)` for a single value), its names the table's columns
--   (`#variable_conflict use_column`). PL/Proxy sends every call as unprepared text, so a LANGUAGE sql body,
--   inlined into that text, is parsed and planned again on every call (58% of a capped shard's CPU per read);
--   a PL/pgSQL body's plan is kept by the session, as the service's prepared statement is on one node.
-- - The rider's writes (record, adjust, erase), each one transaction of those statements in the order
--   PostgresTripRepository runs them, since a PL/Proxy call is one remote call.
-- - The partition's identity: its number and the fixed count of logical partitions, from which its trip and
--   adjustment ids are numbered so that an id names its partition and is unique across the cluster.

-- Partition identity and ids ------------------------------------------------------------------------------

-- This database's place in the cluster, one row, written once when the partition is created. `partitions` is
-- the fixed number of logical partitions L, which never changes: riders are placed by hashint8(rider) & (L - 1).
CREATE TABLE IF NOT EXISTS trip_history_partition (
    singleton  boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    partition  integer NOT NULL CHECK (partition >= 0),
    partitions integer NOT NULL CHECK (partitions BETWEEN 1 AND 65536 AND partitions & (partitions - 1) = 0),
    CHECK (partition < partitions)
);
-- How many times this database has been moved to another server (scripts/cluster move-partition counts it on
-- the new copy): with the server's system identifier, the identity the analysts' feed tokens keep.
ALTER TABLE trip_history_partition ADD COLUMN IF NOT EXISTS moves integer NOT NULL DEFAULT 0;

-- Numbers a table's ids (its `id` column's sequence) for partition `partition` of `partitions`: every id from
-- now on is congruent to `partition` modulo `partitions` (INCREMENT BY L), starting above every id the table or
-- its sequence ever handed out, so a deleted trip's id is never reused. Nothing to do when already so numbered.
CREATE OR REPLACE FUNCTION trip_history_number_ids(tab regclass, partition integer, partitions integer)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    ids constant regclass := pg_get_serial_sequence(tab::text, 'id');
    increment bigint;
    highest bigint;
    next_id bigint;
BEGIN
    SELECT s.seqincrement INTO increment FROM pg_sequence s WHERE s.seqrelid = ids;
    EXECUTE format('SELECT greatest(max(id), 0) FROM %s', tab) INTO highest;
    highest := greatest(highest, coalesce(pg_sequence_last_value(ids), 0));
    IF increment = partitions AND (highest = 0 OR highest % partitions = partition) THEN
        RETURN;
    END IF;
    -- The smallest id above `highest` (and at least L, so no id is 0) that is `partition` modulo L.
    next_id := greatest(highest + 1, partitions);
    next_id := next_id + ((partition - next_id % partitions) % partitions + partitions) % partitions;
    EXECUTE format('ALTER SEQUENCE %s INCREMENT BY %s RESTART WITH %s', ids, partitions, next_id);
END
$$;

-- Makes this database partition `partition` of `partitions`: records it and numbers the ids the API shows
-- (trips and ledger entries) by it. Refuses another place than the one recorded: a partition keeps its number
-- and L for life (growing moves databases, it never renumbers them). The tables are locked against writes
-- while their sequences restart. Feed positions are numbered per rider and idempotency keys are keyed per
-- caller, so neither needs it.
CREATE OR REPLACE FUNCTION trip_history_become_partition(partition integer, partitions integer)
RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    recorded trip_history_partition;
BEGIN
    LOCK TABLE trips, trip_adjustments IN SHARE ROW EXCLUSIVE MODE;
    SELECT * INTO recorded FROM trip_history_partition;
    IF FOUND AND (recorded.partition, recorded.partitions) IS DISTINCT FROM (partition, partitions) THEN
        RAISE EXCEPTION 'this database is partition % of %, not % of %', recorded.partition, recorded.partitions,
            partition, partitions;
    END IF;
    IF NOT FOUND THEN
        INSERT INTO trip_history_partition (partition, partitions) VALUES (partition, partitions);
    END IF;
    PERFORM trip_history_number_ids('trips', partition, partitions);
    PERFORM trip_history_number_ids('trip_adjustments', partition, partitions);
END
$$;

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

-- Whether this partition's server is a standby, for the proxy's view of the cluster a session reads from.
CREATE OR REPLACE FUNCTION trip_history_partition_roles(OUT partition_name text, OUT in_recovery boolean)
RETURNS SETOF record
LANGUAGE sql STABLE
AS $$
    SELECT current_database()::text, pg_is_in_recovery()
$$;

-- The service's statements, text for text ----------------------------------------------------------------

-- statement: trips_older_v2 (RiderTripsPage, newest first)
CREATE OR REPLACE FUNCTION trips_older_v2(
    rider_id bigint, from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[],
    lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE rider_id = $1 AND requested_at >= $2::timestamptz AND requested_at < $3::timestamptz
  AND (requested_at, id) < ($4::timestamptz, $5::bigint) AND status = ANY ($6::text[])
ORDER BY requested_at DESC, id DESC
LIMIT $7;
END
$statement$;

-- statement: trips_newer_v2 (RiderTripsPage, oldest first)
CREATE OR REPLACE FUNCTION trips_newer_v2(
    rider_id bigint, from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[],
    lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE rider_id = $1 AND requested_at >= $2::timestamptz AND requested_at < $3::timestamptz
  AND (requested_at, id) > ($4::timestamptz, $5::bigint) AND status = ANY ($6::text[])
ORDER BY requested_at ASC, id ASC
LIMIT $7;
END
$statement$;

-- statement: trips_count_v1 (RiderTripsCount, exact)
CREATE OR REPLACE FUNCTION trips_count_v1(
    rider_id bigint, from_at timestamptz, to_at timestamptz, statuses text[], lim bigint
) RETURNS bigint
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN (
SELECT count(*) FROM (SELECT 1 FROM trips
WHERE rider_id = $1 AND requested_at >= $2::timestamptz AND requested_at < $3::timestamptz
  AND status = ANY ($4::text[]) LIMIT $5) AS counted
);
END
$statement$;

-- statement: trips_by_id_v2 (TripByID: the detail, which the receipt reads too)
CREATE OR REPLACE FUNCTION trips_by_id_v2(id bigint, rider_id bigint)
RETURNS SETOF trip_history_trip_detail
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, r.payment_method, r.payment_brand, r.payment_last4, r.driver_first_name, r.vehicle_make, r.vehicle_model, r.vehicle_color, r.vehicle_plate, r.route_polyline, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text
FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id WHERE trips.id = $1 AND trips.rider_id = $2;
END
$statement$;

-- statement: trips_export_batch_v1 (RiderTripsExportBatch)
CREATE OR REPLACE FUNCTION trips_export_batch_v1(rider_id bigint, key_at timestamptz, key_id bigint, lim bigint)
RETURNS SETOF trip_history_trip_detail
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, r.payment_method, r.payment_brand, r.payment_last4, r.driver_first_name, r.vehicle_make, r.vehicle_model, r.vehicle_color, r.vehicle_plate, r.route_polyline, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text
FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE trips.rider_id = $1 AND (trips.requested_at, trips.id) < ($2::timestamptz, $3::bigint)
ORDER BY trips.requested_at DESC, trips.id DESC
LIMIT $4;
END
$statement$;

-- statement: trip_changes_page_v2 (RiderChangesPage)
CREATE OR REPLACE FUNCTION trip_changes_page_v2(rider_id bigint, after_seq bigint, lim bigint)
RETURNS SETOF trip_history_change
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT mark.behind, c.seq, c.change, c.trip_id, trips.id IS NOT NULL, trips.id, trips.rider_id, trips.status, trips.product, trips.city, trips.time_zone, trips.requested_at, trips.started_at, trips.completed_at, trips.pickup_lat, trips.pickup_lon, trips.pickup_address, trips.dropoff_lat, trips.dropoff_lon, trips.dropoff_address, trips.distance_m, trips.duration_s, trips.fare_amount_minor, trips.fare_currency, trips.version, trips.recorded_at, trips.updated_at, trips.tips_minor, trips.refunds_minor, trips.corrections_minor
FROM (
    SELECT EXISTS (SELECT 1 FROM rider_change_purges WHERE rider_id = $1 AND purged_through > $2) AS behind
) mark
LEFT JOIN LATERAL (
    SELECT seq, change, trip_id FROM trip_changes
    WHERE rider_id = $1 AND seq > $2 AND NOT mark.behind
    ORDER BY seq
    LIMIT $3
) c ON true
LEFT JOIN trips ON trips.id = c.trip_id AND c.change = 'upsert'
ORDER BY c.seq;
END
$statement$;

-- statement: trip_changes_last_v1 (RiderLastChange)
CREATE OR REPLACE FUNCTION trip_changes_last_v1(rider_id bigint)
RETURNS SETOF bigint
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT last_seq FROM rider_change_counters WHERE rider_id = $1;
END
$statement$;

-- statement: idempotency_lock_v1 (LockIdempotencyKey)
CREATE OR REPLACE FUNCTION idempotency_lock_v1(scope text, key text)
RETURNS boolean
LANGUAGE sql AS $statement$
SELECT pg_try_advisory_xact_lock(hashtextextended($1 || ':' || $2, 0))
$statement$;

-- statement: idempotency_find_trip_v1 (FindIdempotentTrip)
CREATE OR REPLACE FUNCTION idempotency_find_trip_v1(scope text, key text, fingerprint text)
RETURNS TABLE (fingerprint_matches boolean, trip_id bigint)
LANGUAGE sql STABLE AS $statement$
SELECT k.fingerprint_md5 = md5($3), k.trip_id FROM idempotency_keys k WHERE k.scope = $1 AND k.key = $2
$statement$;

-- statement: idempotency_touch_v1 (TouchIdempotencyKey)
CREATE OR REPLACE FUNCTION idempotency_touch_v1(scope text, key text)
RETURNS void
LANGUAGE sql AS $statement$
UPDATE idempotency_keys SET created_at = created_at WHERE scope = $1 AND key = $2
$statement$;

-- statement: idempotency_insert_v1 (InsertIdempotencyKey)
CREATE OR REPLACE FUNCTION idempotency_insert_v1(scope text, key text, fingerprint text, trip_id bigint)
RETURNS void
LANGUAGE sql AS $statement$
INSERT INTO idempotency_keys (scope, key, fingerprint_md5, trip_id, created_at)
VALUES ($1, $2, md5($3), $4, now())
$statement$;

-- statement: trips_insert_v2 (InsertTrip)
CREATE OR REPLACE FUNCTION trips_insert_v2(
    rider_id bigint, status text, product text, city text, time_zone text, requested_at timestamptz,
    started_at timestamptz, completed_at timestamptz, pickup_lat double precision, pickup_lon double precision,
    pickup_address text, dropoff_lat double precision, dropoff_lon double precision, dropoff_address text,
    distance_m bigint, duration_s bigint, fare_amount_minor bigint, fare_currency text
) RETURNS TABLE (id bigint, recorded_at timestamptz)
LANGUAGE sql AS $statement$
INSERT INTO trips (rider_id, status, product, city, time_zone, requested_at, started_at, completed_at,
    pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address,
    distance_m, duration_s, fare_amount_minor, fare_currency)
VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::timestamptz, $8::timestamptz,
    $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
RETURNING id, recorded_at
$statement$;

-- statement: trip_receipts_insert_v1 (InsertTripReceipt)
CREATE OR REPLACE FUNCTION trip_receipts_insert_v1(
    trip_id bigint, fare_breakdown text, payment_method text, payment_brand text, payment_last4 text,
    driver_first_name text, vehicle_make text, vehicle_model text, vehicle_color text, vehicle_plate text,
    route_polyline text
) RETURNS void
LANGUAGE sql AS $statement$
INSERT INTO trip_receipts (trip_id, fare_breakdown, payment_method, payment_brand, payment_last4,
    driver_first_name, vehicle_make, vehicle_model, vehicle_color, vehicle_plate, route_polyline)
VALUES ($1, $2::jsonb, $3, $4, $5, $6, $7, $8, $9, $10, $11)
$statement$;

-- statement: trip_changes_insert_v1 (InsertTripChange)
CREATE OR REPLACE FUNCTION trip_changes_insert_v1(rider_id bigint, trip_id bigint, change text)
RETURNS void
LANGUAGE sql AS $statement$
WITH counter AS (
    INSERT INTO rider_change_counters AS c (rider_id, last_seq) VALUES ($1, 1)
    ON CONFLICT (rider_id) DO UPDATE SET last_seq = c.last_seq + 1
    RETURNING last_seq
)
INSERT INTO trip_changes (rider_id, seq, trip_id, change) SELECT $1, last_seq, $2, $3 FROM counter
$statement$;

-- statement: trips_announce_recorded_v1 (AnnounceRecordedTrip)
CREATE OR REPLACE FUNCTION trips_announce_recorded_v1(payload text, rider_id bigint, requested_at timestamptz)
RETURNS TABLE (notified void, erased_since boolean)
LANGUAGE sql AS $statement$
SELECT pg_notify('trip_history_changes', $1),
    EXISTS (SELECT 1 FROM rider_erasures WHERE rider_id = $2::bigint AND erased_at > $3::timestamptz)
$statement$;

-- statement: trips_notify_change_v1 (NotifyTripChange)
CREATE OR REPLACE FUNCTION trips_notify_change_v1(payload text)
RETURNS void
LANGUAGE sql AS $statement$
SELECT pg_notify('trip_history_changes', $1)
$statement$;

-- statement: trips_lock_v1 (LockTrip)
CREATE OR REPLACE FUNCTION trips_lock_v1(id bigint, rider_id bigint)
RETURNS SETOF trip_history_trip
LANGUAGE sql AS $statement$
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips WHERE id = $1 AND rider_id = $2 FOR UPDATE
$statement$;

-- statement: trip_adjustments_insert_v1 (InsertAdjustment)
CREATE OR REPLACE FUNCTION trip_adjustments_insert_v1(trip_id bigint, kind text, amount_minor bigint, reason text)
RETURNS SETOF bigint
LANGUAGE sql AS $statement$
WITH adjustment AS (
    INSERT INTO trip_adjustments (trip_id, kind, amount_minor, reason) VALUES ($1, $2, $3, $4) RETURNING id
)
UPDATE trips SET version = version + 1, updated_at = now(),
    tips_minor = tips_minor + CASE WHEN $2 = 'tip' THEN $3::bigint ELSE 0 END,
    refunds_minor = refunds_minor + CASE WHEN $2 = 'refund' THEN $3::bigint ELSE 0 END,
    corrections_minor = corrections_minor + CASE WHEN $2 = 'fare_correction' THEN $3::bigint ELSE 0 END
WHERE id = $1
RETURNING (SELECT id FROM adjustment)
$statement$;

-- statement: erasure_lock_trips_v2 (LockRiderTrips)
CREATE OR REPLACE FUNCTION erasure_lock_trips_v2(rider_id bigint)
RETURNS void
LANGUAGE sql AS $statement$
SELECT 1 FROM trips WHERE rider_id = $1 ORDER BY id FOR UPDATE
$statement$;

-- statement: erasure_lock_counter_v1 (LockRiderChangeCounter)
CREATE OR REPLACE FUNCTION erasure_lock_counter_v1(rider_id bigint)
RETURNS void
LANGUAGE sql AS $statement$
INSERT INTO rider_change_counters AS c (rider_id, last_seq) VALUES ($1, 1)
ON CONFLICT (rider_id) DO UPDATE SET last_seq = c.last_seq
$statement$;

-- statement: trips_retirement_lock_shared_v1 (RetirementLock.Shared)
CREATE OR REPLACE FUNCTION trips_retirement_lock_shared_v1()
RETURNS void
LANGUAGE sql AS $statement$
SELECT pg_advisory_xact_lock_shared(hashtext('trips_retirement'), 0)
$statement$;

-- statement: erasure_detached_years_v1 (DetachedTripYears)
CREATE OR REPLACE FUNCTION erasure_detached_years_v1()
RETURNS SETOF bigint
LANGUAGE sql STABLE AS $statement$
SELECT substr(c.relname, 8)::bigint FROM pg_class c
WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema())
    AND c.relkind = 'r' AND c.relname ~ '^trips_y-?[0-9]+$'
    AND (NOT c.relispartition
        OR EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = c.oid AND i.inhdetachpending))
ORDER BY 1
$statement$;

-- statement: erasure_delete_v3 (EraseRiderTrips)
CREATE OR REPLACE FUNCTION erasure_delete_v3(
    rider_id bigint, requested_by text, earlier_trips bigint, earlier_adjustments bigint
) RETURNS TABLE (erased_at_us bigint, trips bigint, adjustments bigint)
LANGUAGE sql AS $statement$
WITH gone AS (
    DELETE FROM trips WHERE rider_id = $1 RETURNING id
), receipts AS (
    DELETE FROM trip_receipts WHERE trip_id IN (SELECT id FROM gone)
), keys AS (
    DELETE FROM idempotency_keys WHERE trip_id IN (SELECT id FROM gone)
), ledger_rows AS (
    DELETE FROM trip_adjustments WHERE trip_id IN (SELECT id FROM gone) RETURNING 1
), counted AS (
    SELECT count(*) AS trips FROM gone
), counter AS (
    UPDATE rider_change_counters SET last_seq = last_seq + (SELECT trips FROM counted)
    WHERE rider_id = $1 RETURNING last_seq - (SELECT trips FROM counted) AS before
), feed AS (
    INSERT INTO trip_changes (rider_id, seq, trip_id, change)
    SELECT $1, counter.before + row_number() OVER (ORDER BY gone.id), gone.id, 'erased'
    FROM gone, counter
), ledger AS (
    SELECT count(*) AS entries FROM ledger_rows
)
INSERT INTO rider_erasures (rider_id, trips, adjustments, requested_by)
SELECT $1, counted.trips + $3::bigint, ledger.entries + $4::bigint, $2 FROM counted, ledger
RETURNING (extract(epoch FROM erased_at) * 1000000)::bigint, trips::bigint, adjustments::bigint
$statement$;

-- The analysts' reads: every combination of the optional equality filters (city, product, rider) is its own
-- statement on one node, and its own function here, which the proxy runs on every partition (on the rider's
-- one with a rider) and the service merges (AnalystFanOut). Stats answer their inner aggregate with numeric sums
-- (AnalystStatsParts), which the merge adds up and casts as AnalystStats does.

-- statement: analyst_trips_older_c0p0r0_v2 (AnalystTripsPage of every trip, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c0p0r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[])
ORDER BY requested_at DESC, id DESC
LIMIT $6;
END
$statement$;

-- statement: analyst_trips_newer_c0p0r0_v2 (AnalystTripsPage of every trip, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p0r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[])
ORDER BY requested_at ASC, id ASC
LIMIT $6;
END
$statement$;

-- statement: analyst_count_c0p0r0_v1 (AnalystTripsCount of every trip, exact)
CREATE OR REPLACE FUNCTION analyst_count_c0p0r0_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], lim bigint
) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT count(*) FROM (SELECT 1 FROM trips WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz AND status = ANY ($3::text[]) LIMIT $4) AS counted;
END
$statement$;

-- statement: analyst_stats_parts_c0p0r0_v1 (AnalystStatsParts of every trip)
CREATE OR REPLACE FUNCTION analyst_stats_parts_c0p0r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[]
) RETURNS SETOF trip_history_stats_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[])
GROUP BY 1, 2;
END
$statement$;

-- statement: analyst_stats_parts_by_city_c0p0r0_v1 (AnalystStatsParts of every trip by city)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c0p0r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[]
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    city, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[])
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_stats_parts_by_product_c0p0r0_v1 (AnalystStatsParts of every trip by product)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c0p0r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[]
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    product, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[])
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_trips_older_c0p0r1_v2 (AnalystTripsPage of a rider, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c0p0r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[],
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND rider_id = $6
ORDER BY requested_at DESC, id DESC
LIMIT $7;
END
$statement$;

-- statement: analyst_trips_newer_c0p0r1_v2 (AnalystTripsPage of a rider, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p0r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[],
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND rider_id = $6
ORDER BY requested_at ASC, id ASC
LIMIT $7;
END
$statement$;

-- statement: analyst_count_c0p0r1_v1 (AnalystTripsCount of a rider, exact)
CREATE OR REPLACE FUNCTION analyst_count_c0p0r1_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], rider_id bigint, lim bigint
) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT count(*) FROM (SELECT 1 FROM trips WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz AND status = ANY ($3::text[]) AND rider_id = $4 LIMIT $5) AS counted;
END
$statement$;

-- statement: analyst_stats_parts_c0p0r1_v1 (AnalystStatsParts of a rider)
CREATE OR REPLACE FUNCTION analyst_stats_parts_c0p0r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], rider_id bigint
) RETURNS SETOF trip_history_stats_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND rider_id = $6
GROUP BY 1, 2;
END
$statement$;

-- statement: analyst_stats_parts_by_city_c0p0r1_v1 (AnalystStatsParts of a rider by city)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c0p0r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    city, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND rider_id = $6
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_stats_parts_by_product_c0p0r1_v1 (AnalystStatsParts of a rider by product)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c0p0r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    product, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND rider_id = $6
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_trips_older_c0p1r0_v2 (AnalystTripsPage of a product, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c0p1r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND product = $6
ORDER BY requested_at DESC, id DESC
LIMIT $7;
END
$statement$;

-- statement: analyst_trips_newer_c0p1r0_v2 (AnalystTripsPage of a product, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p1r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND product = $6
ORDER BY requested_at ASC, id ASC
LIMIT $7;
END
$statement$;

-- statement: analyst_count_c0p1r0_v1 (AnalystTripsCount of a product, exact)
CREATE OR REPLACE FUNCTION analyst_count_c0p1r0_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], product text, lim bigint
) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT count(*) FROM (SELECT 1 FROM trips WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz AND status = ANY ($3::text[]) AND product = $4 LIMIT $5) AS counted;
END
$statement$;

-- statement: analyst_stats_parts_c0p1r0_v1 (AnalystStatsParts of a product)
CREATE OR REPLACE FUNCTION analyst_stats_parts_c0p1r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], product text
) RETURNS SETOF trip_history_stats_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND product = $6
GROUP BY 1, 2;
END
$statement$;

-- statement: analyst_stats_parts_by_city_c0p1r0_v1 (AnalystStatsParts of a product by city)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c0p1r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], product text
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    city, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND product = $6
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_stats_parts_by_product_c0p1r0_v1 (AnalystStatsParts of a product by product)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c0p1r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], product text
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    product, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND product = $6
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_trips_older_c0p1r1_v2 (AnalystTripsPage of a product and a rider, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c0p1r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND product = $6 AND rider_id = $7
ORDER BY requested_at DESC, id DESC
LIMIT $8;
END
$statement$;

-- statement: analyst_trips_newer_c0p1r1_v2 (AnalystTripsPage of a product and a rider, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p1r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND product = $6 AND rider_id = $7
ORDER BY requested_at ASC, id ASC
LIMIT $8;
END
$statement$;

-- statement: analyst_count_c0p1r1_v1 (AnalystTripsCount of a product and a rider, exact)
CREATE OR REPLACE FUNCTION analyst_count_c0p1r1_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], product text, rider_id bigint, lim bigint
) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT count(*) FROM (SELECT 1 FROM trips WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz AND status = ANY ($3::text[]) AND product = $4 AND rider_id = $5 LIMIT $6) AS counted;
END
$statement$;

-- statement: analyst_stats_parts_c0p1r1_v1 (AnalystStatsParts of a product and a rider)
CREATE OR REPLACE FUNCTION analyst_stats_parts_c0p1r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], product text,
    rider_id bigint
) RETURNS SETOF trip_history_stats_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND product = $6 AND rider_id = $7
GROUP BY 1, 2;
END
$statement$;

-- statement: analyst_stats_parts_by_city_c0p1r1_v1 (AnalystStatsParts of a product and a rider by city)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c0p1r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], product text,
    rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    city, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND product = $6 AND rider_id = $7
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_stats_parts_by_product_c0p1r1_v1 (AnalystStatsParts of a product and a rider by product)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c0p1r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], product text,
    rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    product, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND product = $6 AND rider_id = $7
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_trips_older_c1p0r0_v2 (AnalystTripsPage of a city, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c1p0r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6
ORDER BY requested_at DESC, id DESC
LIMIT $7;
END
$statement$;

-- statement: analyst_trips_newer_c1p0r0_v2 (AnalystTripsPage of a city, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p0r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6
ORDER BY requested_at ASC, id ASC
LIMIT $7;
END
$statement$;

-- statement: analyst_count_c1p0r0_v1 (AnalystTripsCount of a city, exact)
CREATE OR REPLACE FUNCTION analyst_count_c1p0r0_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], city text, lim bigint
) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT count(*) FROM (SELECT 1 FROM trips WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz AND status = ANY ($3::text[]) AND city = $4 LIMIT $5) AS counted;
END
$statement$;

-- statement: analyst_stats_parts_c1p0r0_v1 (AnalystStatsParts of a city)
CREATE OR REPLACE FUNCTION analyst_stats_parts_c1p0r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text
) RETURNS SETOF trip_history_stats_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND city = $6
GROUP BY 1, 2;
END
$statement$;

-- statement: analyst_stats_parts_by_city_c1p0r0_v1 (AnalystStatsParts of a city by city)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c1p0r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    city, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND city = $6
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_stats_parts_by_product_c1p0r0_v1 (AnalystStatsParts of a city by product)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c1p0r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    product, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND city = $6
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_trips_older_c1p0r1_v2 (AnalystTripsPage of a city and a rider, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c1p0r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6 AND rider_id = $7
ORDER BY requested_at DESC, id DESC
LIMIT $8;
END
$statement$;

-- statement: analyst_trips_newer_c1p0r1_v2 (AnalystTripsPage of a city and a rider, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p0r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6 AND rider_id = $7
ORDER BY requested_at ASC, id ASC
LIMIT $8;
END
$statement$;

-- statement: analyst_count_c1p0r1_v1 (AnalystTripsCount of a city and a rider, exact)
CREATE OR REPLACE FUNCTION analyst_count_c1p0r1_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], city text, rider_id bigint, lim bigint
) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT count(*) FROM (SELECT 1 FROM trips WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz AND status = ANY ($3::text[]) AND city = $4 AND rider_id = $5 LIMIT $6) AS counted;
END
$statement$;

-- statement: analyst_stats_parts_c1p0r1_v1 (AnalystStatsParts of a city and a rider)
CREATE OR REPLACE FUNCTION analyst_stats_parts_c1p0r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    rider_id bigint
) RETURNS SETOF trip_history_stats_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND city = $6 AND rider_id = $7
GROUP BY 1, 2;
END
$statement$;

-- statement: analyst_stats_parts_by_city_c1p0r1_v1 (AnalystStatsParts of a city and a rider by city)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c1p0r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    city, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND city = $6 AND rider_id = $7
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_stats_parts_by_product_c1p0r1_v1 (AnalystStatsParts of a city and a rider by product)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c1p0r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    product, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND city = $6 AND rider_id = $7
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_trips_older_c1p1r0_v2 (AnalystTripsPage of a city and a product, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c1p1r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6 AND product = $7
ORDER BY requested_at DESC, id DESC
LIMIT $8;
END
$statement$;

-- statement: analyst_trips_newer_c1p1r0_v2 (AnalystTripsPage of a city and a product, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p1r0_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6 AND product = $7
ORDER BY requested_at ASC, id ASC
LIMIT $8;
END
$statement$;

-- statement: analyst_count_c1p1r0_v1 (AnalystTripsCount of a city and a product, exact)
CREATE OR REPLACE FUNCTION analyst_count_c1p1r0_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], city text, product text, lim bigint
) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT count(*) FROM (SELECT 1 FROM trips WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz AND status = ANY ($3::text[]) AND city = $4 AND product = $5 LIMIT $6) AS counted;
END
$statement$;

-- statement: analyst_stats_parts_c1p1r0_v1 (AnalystStatsParts of a city and a product)
CREATE OR REPLACE FUNCTION analyst_stats_parts_c1p1r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    product text
) RETURNS SETOF trip_history_stats_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND city = $6 AND product = $7
GROUP BY 1, 2;
END
$statement$;

-- statement: analyst_stats_parts_by_city_c1p1r0_v1 (AnalystStatsParts of a city and a product by city)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c1p1r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    product text
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    city, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND city = $6 AND product = $7
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_stats_parts_by_product_c1p1r0_v1 (AnalystStatsParts of a city and a product by product)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c1p1r0_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    product text
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    product, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND city = $6 AND product = $7
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_trips_older_c1p1r1_v2 (AnalystTripsPage of a city and a product and a rider, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c1p1r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6 AND product = $7 AND rider_id = $8
ORDER BY requested_at DESC, id DESC
LIMIT $9;
END
$statement$;

-- statement: analyst_trips_newer_c1p1r1_v2 (AnalystTripsPage of a city and a product and a rider, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p1r1_v2(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6 AND product = $7 AND rider_id = $8
ORDER BY requested_at ASC, id ASC
LIMIT $9;
END
$statement$;

-- statement: analyst_count_c1p1r1_v1 (AnalystTripsCount of a city and a product and a rider, exact)
CREATE OR REPLACE FUNCTION analyst_count_c1p1r1_v1(
    from_at timestamptz, to_at timestamptz, statuses text[], city text, product text, rider_id bigint,
    lim bigint
) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT count(*) FROM (SELECT 1 FROM trips WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz AND status = ANY ($3::text[]) AND city = $4 AND product = $5 AND rider_id = $6 LIMIT $7) AS counted;
END
$statement$;

-- statement: analyst_stats_parts_c1p1r1_v1 (AnalystStatsParts of a city and a product and a rider)
CREATE OR REPLACE FUNCTION analyst_stats_parts_c1p1r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    product text, rider_id bigint
) RETURNS SETOF trip_history_stats_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND city = $6 AND product = $7 AND rider_id = $8
GROUP BY 1, 2;
END
$statement$;

-- statement: analyst_stats_parts_by_city_c1p1r1_v1 (AnalystStatsParts of a city and a product and a rider by city)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_city_c1p1r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    product text, rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    city, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND city = $6 AND product = $7 AND rider_id = $8
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_stats_parts_by_product_c1p1r1_v1 (AnalystStatsParts of a city and a product and a rider by product)
CREATE OR REPLACE FUNCTION analyst_stats_parts_by_product_c1p1r1_v1(
    granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[], city text,
    product text, rider_id bigint
) RETURNS SETOF trip_history_stats_by_part
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT date_trunc($1, requested_at AT TIME ZONE $2) AS local_start,
    product, fare_currency,
    count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
FROM trips
WHERE requested_at >= $3::timestamptz AND requested_at < $4::timestamptz
  AND status = ANY ($5::text[]) AND city = $6 AND product = $7 AND rider_id = $8
GROUP BY 1, 2, 3;
END
$statement$;

-- statement: analyst_trips_older_c0p0r0_ledger_v1 (AnalystTripsPage of every trip with its ledger, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c0p0r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[])
ORDER BY requested_at DESC, id DESC
LIMIT $6;
END
$statement$;

-- statement: analyst_trips_newer_c0p0r0_ledger_v1 (AnalystTripsPage of every trip with its ledger, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p0r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[])
ORDER BY requested_at ASC, id ASC
LIMIT $6;
END
$statement$;

-- statement: analyst_trips_older_c0p0r1_ledger_v1 (AnalystTripsPage of a rider with its ledger, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c0p0r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[],
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND rider_id = $6
ORDER BY requested_at DESC, id DESC
LIMIT $7;
END
$statement$;

-- statement: analyst_trips_newer_c0p0r1_ledger_v1 (AnalystTripsPage of a rider with its ledger, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p0r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[],
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND rider_id = $6
ORDER BY requested_at ASC, id ASC
LIMIT $7;
END
$statement$;

-- statement: analyst_trips_older_c0p1r0_ledger_v1 (AnalystTripsPage of a product with its ledger, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c0p1r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND product = $6
ORDER BY requested_at DESC, id DESC
LIMIT $7;
END
$statement$;

-- statement: analyst_trips_newer_c0p1r0_ledger_v1 (AnalystTripsPage of a product with its ledger, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p1r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND product = $6
ORDER BY requested_at ASC, id ASC
LIMIT $7;
END
$statement$;

-- statement: analyst_trips_older_c0p1r1_ledger_v1 (AnalystTripsPage of a product and a rider with its ledger, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c0p1r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND product = $6 AND rider_id = $7
ORDER BY requested_at DESC, id DESC
LIMIT $8;
END
$statement$;

-- statement: analyst_trips_newer_c0p1r1_ledger_v1 (AnalystTripsPage of a product and a rider with its ledger, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c0p1r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], product text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND product = $6 AND rider_id = $7
ORDER BY requested_at ASC, id ASC
LIMIT $8;
END
$statement$;

-- statement: analyst_trips_older_c1p0r0_ledger_v1 (AnalystTripsPage of a city with its ledger, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c1p0r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6
ORDER BY requested_at DESC, id DESC
LIMIT $7;
END
$statement$;

-- statement: analyst_trips_newer_c1p0r0_ledger_v1 (AnalystTripsPage of a city with its ledger, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p0r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6
ORDER BY requested_at ASC, id ASC
LIMIT $7;
END
$statement$;

-- statement: analyst_trips_older_c1p0r1_ledger_v1 (AnalystTripsPage of a city and a rider with its ledger, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c1p0r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6 AND rider_id = $7
ORDER BY requested_at DESC, id DESC
LIMIT $8;
END
$statement$;

-- statement: analyst_trips_newer_c1p0r1_ledger_v1 (AnalystTripsPage of a city and a rider with its ledger, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p0r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6 AND rider_id = $7
ORDER BY requested_at ASC, id ASC
LIMIT $8;
END
$statement$;

-- statement: analyst_trips_older_c1p1r0_ledger_v1 (AnalystTripsPage of a city and a product with its ledger, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c1p1r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6 AND product = $7
ORDER BY requested_at DESC, id DESC
LIMIT $8;
END
$statement$;

-- statement: analyst_trips_newer_c1p1r0_ledger_v1 (AnalystTripsPage of a city and a product with its ledger, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p1r0_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6 AND product = $7
ORDER BY requested_at ASC, id ASC
LIMIT $8;
END
$statement$;

-- statement: analyst_trips_older_c1p1r1_ledger_v1 (AnalystTripsPage of a city and a product and a rider with its ledger, newest first)
CREATE OR REPLACE FUNCTION analyst_trips_older_c1p1r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) < ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6 AND product = $7 AND rider_id = $8
ORDER BY requested_at DESC, id DESC
LIMIT $9;
END
$statement$;

-- statement: analyst_trips_newer_c1p1r1_ledger_v1 (AnalystTripsPage of a city and a product and a rider with its ledger, oldest first)
CREATE OR REPLACE FUNCTION analyst_trips_newer_c1p1r1_ledger_v1(
    from_at timestamptz, to_at timestamptz, key_at timestamptz, key_id bigint, statuses text[], city text,
    product text, rider_id bigint, lim bigint
) RETURNS SETOF trip_history_trip_ledger
LANGUAGE plpgsql STABLE AS $statement$
#variable_conflict use_column
BEGIN
RETURN QUERY
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency, version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor, r.fare_breakdown::text, (SELECT json_agg(json_build_object('id', a.id, 'kind', a.kind, 'amount_minor', a.amount_minor,     'reason', a.reason, 'created_at_us', (extract(epoch FROM a.created_at) * 1000000)::bigint) ORDER BY a.id)  FROM trip_adjustments a WHERE a.trip_id = trips.id)::text FROM trips LEFT JOIN trip_receipts r ON r.trip_id = trips.id
WHERE requested_at >= $1::timestamptz AND requested_at < $2::timestamptz
  AND (requested_at, id) > ($3::timestamptz, $4::bigint)
  AND status = ANY ($5::text[]) AND city = $6 AND product = $7 AND rider_id = $8
ORDER BY requested_at ASC, id ASC
LIMIT $9;
END
$statement$;

-- The planner's estimate of the trips an analyst filter matches here: the rows of EXPLAIN of the selection
-- AnalystTripsCount counts (its `analyst_estimate_...` statement on one node), one filter term per argument that
-- is not NULL, for the proxy's sum.
CREATE OR REPLACE FUNCTION trip_history_analyst_estimate(
    from_at timestamptz, to_at timestamptz, statuses text[], city text, product text, rider_id bigint
) RETURNS SETOF bigint
LANGUAGE plpgsql AS $$  -- volatile: PostgreSQL runs EXPLAIN in no other function
DECLARE
    plan json;
BEGIN
    EXECUTE 'EXPLAIN (FORMAT JSON) SELECT 1 FROM trips WHERE requested_at >= $1 AND requested_at < $2'
        || ' AND status = ANY ($3)'
        || CASE WHEN city IS NULL THEN '' ELSE ' AND city = $4' END
        || CASE WHEN product IS NULL THEN '' ELSE ' AND product = $5' END
        || CASE WHEN rider_id IS NULL THEN '' ELSE ' AND rider_id = $6' END
        INTO plan USING from_at, to_at, statuses, city, product, rider_id;
    RETURN NEXT round((plan -> 0 -> 'Plan' ->> 'Plan Rows')::numeric)::bigint;
END
$$;

-- Replaced by analyst_stats_parts_c1p0r0_v1.
DROP FUNCTION IF EXISTS trip_history_stats_parts_c1p0r0(text, text, timestamptz, timestamptz, text[], text);

-- The rider's writes, one transaction each ----------------------------------------------------------------
-- Errors the service maps to its answers carry their own SQLSTATE: TH409 the idempotency key is in use by a
-- concurrent request (409 conflict), TH422 the key was used with another body (422 idempotency_key_reused),
-- TH410 the rider was erased after the trip was requested (rider_erased), TH404 no such trip of the rider,
-- TH412 the trip's version is not the expected one (412), TH503 a write's standby copy is not confirmed
-- (trip_history_await_standby_copy). The cache notification a statement sends here
-- reaches only this partition's listeners, which are none: the service notifies on its own connection.

-- The idempotency check of PostgresTripRepository.write: nothing when the request has no key or its key is
-- new (the key's lock is then held to the end of the transaction); the trip the key recorded when the same
-- request comes again, with the key's row rewritten so the commit waits for a synchronous standby like the
-- first one did.
CREATE OR REPLACE FUNCTION trip_history_idempotent_trip(
    rider_id bigint, scope text, key text, fingerprint text
) RETURNS SETOF trip_history_trip_detail
LANGUAGE plpgsql AS $$
DECLARE
    found_key record;
BEGIN
    IF key IS NULL THEN
        RETURN;
    END IF;
    IF NOT idempotency_lock_v1(scope, key) THEN
        RAISE EXCEPTION 'the idempotency key is in use by a concurrent request' USING ERRCODE = 'TH409';
    END IF;
    SELECT * INTO found_key FROM idempotency_find_trip_v1(scope, key, fingerprint);
    IF NOT FOUND THEN
        RETURN;
    END IF;
    IF NOT found_key.fingerprint_matches THEN
        RAISE EXCEPTION 'the idempotency key was used with another request' USING ERRCODE = 'TH422';
    END IF;
    PERFORM idempotency_touch_v1(scope, key);
    RETURN QUERY SELECT * FROM trips_by_id_v2(found_key.trip_id, rider_id);
    IF NOT FOUND THEN
        RAISE EXCEPTION 'the trip of the idempotency key is gone' USING ERRCODE = 'TH404';
    END IF;
END
$$;

-- Records a trip (PostgresTripRepository.record): the trip, its receipt's parts when any is given, the feed's
-- entry, the erasure check and the idempotency key, in one transaction; returns the trip as stored and whether
-- it is the answer to a repeated request (`replayed`). The receipt's arguments are NULL when the trip reported
-- none of it.
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
LANGUAGE plpgsql AS $$
DECLARE
    inserted record;
BEGIN
    SELECT t.* INTO trip FROM trip_history_idempotent_trip(
        rider_id, idempotency_scope, idempotency_key, idempotency_fingerprint) AS t;
    IF FOUND THEN
        replayed := true;
        RETURN;
    END IF;
    SELECT * INTO inserted FROM trips_insert_v2(rider_id, status, product, city, time_zone, requested_at,
        started_at, completed_at, pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon,
        dropoff_address, distance_m, duration_s, fare_amount_minor, fare_currency);
    IF num_nonnulls(fare_breakdown, payment_method, payment_brand, payment_last4, driver_first_name, vehicle_make,
            vehicle_model, vehicle_color, vehicle_plate, route_polyline) > 0 THEN
        PERFORM trip_receipts_insert_v1(inserted.id, fare_breakdown, payment_method, payment_brand, payment_last4,
            driver_first_name, vehicle_make, vehicle_model, vehicle_color, vehicle_plate, route_polyline);
    END IF;
    -- The feed's entry takes the rider's counter lock; only then can the check see every erasure.
    PERFORM trip_changes_insert_v1(rider_id, inserted.id, 'upsert');
    IF (SELECT a.erased_since FROM trips_announce_recorded_v1(rider_id::text, rider_id, requested_at) AS a) THEN
        RAISE EXCEPTION 'the rider was erased after the trip was requested' USING ERRCODE = 'TH410';
    END IF;
    IF idempotency_key IS NOT NULL THEN
        PERFORM idempotency_insert_v1(idempotency_scope, idempotency_key, idempotency_fingerprint, inserted.id);
    END IF;
    SELECT t.* INTO trip FROM trips_by_id_v2(inserted.id, rider_id) AS t;
    replayed := false;
END
$$;

-- Appends an adjustment (PostgresTripRepository.adjust) with the trip locked. The service's check of the
-- adjustment against the trip is Swift code that cannot run between two statements of one remote call, so
-- the service reads the trip, checks it, and passes the version it checked as `checked_version`: the call
-- answers TH412 when the trip has moved on since (the service reads and checks again, or answers 412 when the
-- client's If-Match named that version), so the check always saw the trip the adjustment applies to.
CREATE OR REPLACE FUNCTION trip_history_record_adjustment(
    rider_id bigint, trip_id bigint, checked_version integer, kind text, amount_minor bigint, reason text,
    idempotency_scope text, idempotency_key text, idempotency_fingerprint text,
    OUT replayed boolean, OUT trip trip_history_trip_detail
) RETURNS record
LANGUAGE plpgsql AS $$
DECLARE
    locked trip_history_trip;
BEGIN
    SELECT t.* INTO trip FROM trip_history_idempotent_trip(
        rider_id, idempotency_scope, idempotency_key, idempotency_fingerprint) AS t;
    IF FOUND THEN
        replayed := true;
        RETURN;
    END IF;
    SELECT * INTO locked FROM trips_lock_v1(trip_id, rider_id);
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no trip % of rider %', trip_id, rider_id USING ERRCODE = 'TH404';
    END IF;
    IF checked_version IS DISTINCT FROM locked.version THEN
        RAISE EXCEPTION 'trip % is at version %, not %', trip_id, locked.version, checked_version
            USING ERRCODE = 'TH412';
    END IF;
    PERFORM trip_adjustments_insert_v1(trip_id, kind, amount_minor, reason);
    PERFORM trip_changes_insert_v1(rider_id, trip_id, 'upsert');
    PERFORM trips_notify_change_v1(rider_id::text);
    SELECT t.* INTO trip FROM trips_by_id_v2(trip_id, rider_id) AS t;
    replayed := false;
END
$$;

-- Erases the rider (PostgresTripRepository.erase): the rider's trips locked, then the rider's counter, then
-- everything deleted with an `erased` feed entry per trip and the audit record; returns the record's time and
-- counts. Years the retention detached are erased by the service statement made for each year, which has no
-- function here yet: a partition holding one refuses the erasure rather than leave trips behind.
CREATE OR REPLACE FUNCTION trip_history_erase_rider(
    rider_id bigint, requested_by text, OUT erased_at_us bigint, OUT trips bigint, OUT adjustments bigint
) RETURNS record
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM erasure_lock_trips_v2(rider_id);
    PERFORM erasure_lock_counter_v1(rider_id);
    PERFORM trips_retirement_lock_shared_v1();
    IF EXISTS (SELECT FROM erasure_detached_years_v1()) THEN
        RAISE EXCEPTION 'this partition holds detached years of trips; erase through the service on it'
            USING ERRCODE = 'TH501';
    END IF;
    SELECT e.erased_at_us, e.trips, e.adjustments INTO erased_at_us, trips, adjustments
    FROM erasure_delete_v3(rider_id, requested_by, 0, 0) AS e;
    PERFORM trips_notify_change_v1(rider_id::text);
END
$$;

-- The standby copy of a write (PostgresTripRepository's awaitStandbyCopy, for the sharded topology): a call after
-- the write's own call has returned, so after its commit. It first checks that this server holds the write
-- (the trip at `version` or later, or for an erasure, `trip_id` NULL, none of the rider's trips left): after a
-- failover between the two calls the new primary may not, and the write must then not be acknowledged. Then it
-- waits until a streaming standby has flushed everything written here so far, the write's commit included,
-- for at most `timeout_ms`. TH503 when either fails: the write's outcome is unknown and a retry with its key
-- finds out.
CREATE OR REPLACE FUNCTION trip_history_await_standby_copy(
    rider_id bigint, trip_id bigint, version integer, timeout_ms integer
) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    written constant pg_lsn := pg_current_wal_insert_lsn();
    deadline constant timestamptz := clock_timestamp() + timeout_ms * interval '1 millisecond';
    held boolean;
BEGIN
    IF trip_id IS NULL THEN
        held := NOT EXISTS (SELECT FROM trips AS t WHERE t.rider_id = $1);
    ELSE
        held := EXISTS (SELECT FROM trips AS t WHERE t.id = $2 AND t.rider_id = $1 AND t.version >= $3);
    END IF;
    IF NOT held THEN
        RAISE EXCEPTION 'this server does not hold the write (a failover?)' USING ERRCODE = 'TH503';
    END IF;
    WHILE NOT EXISTS (SELECT FROM pg_stat_replication WHERE flush_lsn >= written) LOOP
        IF clock_timestamp() > deadline THEN
            RAISE EXCEPTION 'no standby flushed the write in time' USING ERRCODE = 'TH503';
        END IF;
        PERFORM pg_sleep(0.002);
    END LOOP;
    RETURN true;
END
$$;

-- Read-your-writes on the shards' standbys (docs/scaling.md) ---------------------------------------------------

-- After a write's call, on the rider's partition's primary: a WAL position past the write's commit and the
-- server it is on (its system identifier, which its physical standbys share, and the partition's count of
-- moves). `rider_id` only places the call.
CREATE OR REPLACE FUNCTION trip_history_write_position(
    rider_id bigint, OUT lsn pg_lsn, OUT system_identifier bigint, OUT moves integer
) RETURNS record
LANGUAGE sql VOLATILE AS $$
    SELECT pg_current_wal_lsn(), s.system_identifier, p.moves
    FROM trip_history_partition AS p CROSS JOIN pg_control_system() AS s
$$;

-- Every partition's position (above) with its number: where every rider's reads must start from.
CREATE OR REPLACE FUNCTION trip_history_write_positions(
    OUT partition integer, OUT lsn pg_lsn, OUT system_identifier bigint, OUT moves integer
) RETURNS SETOF record
LANGUAGE sql VOLATILE AS $$
    SELECT p.partition, pg_current_wal_lsn(), s.system_identifier, p.moves
    FROM trip_history_partition AS p CROSS JOIN pg_control_system() AS s
$$;

-- THLAG unless this server holds every write up to `lsn` of the server the position names: a standby that has
-- replayed it, or that server's primary; a copy of the partition on another server (after a move) never does.
CREATE OR REPLACE FUNCTION trip_history_require_replay(lsn pg_lsn, system_identifier bigint, moves integer)
RETURNS void
LANGUAGE plpgsql STABLE AS $$
BEGIN
    IF (SELECT s.system_identifier FROM pg_control_system() AS s) IS DISTINCT FROM $2
        OR (SELECT p.moves FROM trip_history_partition AS p) IS DISTINCT FROM $3
        OR (pg_is_in_recovery() AND coalesce(pg_last_wal_replay_lsn(), '0/0') < $1) THEN
        RAISE EXCEPTION 'this server has not replayed the rider''s writes' USING ERRCODE = 'THLAG';
    END IF;
END
$$;

-- The rider's reads on a server that holds the rider's writes up to a position: each the statement's function
-- above after trip_history_require_replay.
CREATE OR REPLACE FUNCTION trips_older_v2_replayed(
    lsn pg_lsn, system_identifier bigint, moves integer, rider_id bigint, from_at timestamptz, to_at timestamptz,
    key_at timestamptz, key_id bigint, statuses text[], lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $$
BEGIN
    PERFORM trip_history_require_replay($1, $2, $3);
    RETURN QUERY SELECT * FROM trips_older_v2($4, $5, $6, $7, $8, $9, $10);
END
$$;

CREATE OR REPLACE FUNCTION trips_newer_v2_replayed(
    lsn pg_lsn, system_identifier bigint, moves integer, rider_id bigint, from_at timestamptz, to_at timestamptz,
    key_at timestamptz, key_id bigint, statuses text[], lim bigint
) RETURNS SETOF trip_history_trip
LANGUAGE plpgsql STABLE AS $$
BEGIN
    PERFORM trip_history_require_replay($1, $2, $3);
    RETURN QUERY SELECT * FROM trips_newer_v2($4, $5, $6, $7, $8, $9, $10);
END
$$;

CREATE OR REPLACE FUNCTION trips_count_v1_replayed(
    lsn pg_lsn, system_identifier bigint, moves integer, rider_id bigint, from_at timestamptz, to_at timestamptz,
    statuses text[], lim bigint
) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
BEGIN
    PERFORM trip_history_require_replay($1, $2, $3);
    RETURN trips_count_v1($4, $5, $6, $7, $8);
END
$$;

CREATE OR REPLACE FUNCTION trips_by_id_v2_replayed(
    lsn pg_lsn, system_identifier bigint, moves integer, id bigint, rider_id bigint
) RETURNS SETOF trip_history_trip_detail
LANGUAGE plpgsql STABLE AS $$
BEGIN
    PERFORM trip_history_require_replay($1, $2, $3);
    RETURN QUERY SELECT * FROM trips_by_id_v2($4, $5);
END
$$;

CREATE OR REPLACE FUNCTION trips_export_batch_v1_replayed(
    lsn pg_lsn, system_identifier bigint, moves integer, rider_id bigint, key_at timestamptz, key_id bigint,
    lim bigint
) RETURNS SETOF trip_history_trip_detail
LANGUAGE plpgsql STABLE AS $$
BEGIN
    PERFORM trip_history_require_replay($1, $2, $3);
    RETURN QUERY SELECT * FROM trips_export_batch_v1($4, $5, $6, $7);
END
$$;

-- statement: analyst_stats_c1p0r0_v3 (AnalystStats of a city, as one node runs it, for comparisons; a partition
-- answers the proxy's stats with analyst_stats_parts_c1p0r0_v1 instead)
CREATE OR REPLACE FUNCTION analyst_stats_c1p0r0_v3(
    bucket_zone text, granularity text, time_zone text, from_at timestamptz, to_at timestamptz, statuses text[],
    city text
) RETURNS TABLE (
    bucket_start timestamptz, fare_currency char(3), trips bigint, completed bigint, canceled bigint,
    fare_total bigint, distance_total bigint, completed_duration bigint, tips_total bigint, refunds_total bigint
)
LANGUAGE sql STABLE AS $statement$
SELECT local_start AT TIME ZONE $1 AS bucket_start, fare_currency, trips, completed, canceled,
    CASE WHEN fare_total BETWEEN -9223372036854775808 AND 9223372036854775807 THEN fare_total::bigint END, CASE WHEN distance_total BETWEEN -9223372036854775808 AND 9223372036854775807 THEN distance_total::bigint END,
    CASE WHEN completed_duration BETWEEN -9223372036854775808 AND 9223372036854775807 THEN completed_duration::bigint END, CASE WHEN tips_total BETWEEN -9223372036854775808 AND 9223372036854775807 THEN tips_total::bigint END,
    CASE WHEN refunds_total BETWEEN -9223372036854775808 AND 9223372036854775807 THEN refunds_total::bigint END
FROM (
    SELECT date_trunc($2, requested_at AT TIME ZONE $3) AS local_start,
        fare_currency,
        count(*) AS trips,
        count(*) FILTER (WHERE status = 'completed') AS completed,
        count(*) FILTER (WHERE status = 'canceled') AS canceled,
        sum(fare_amount_minor) AS fare_total,
        sum(distance_m) AS distance_total,
        coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration,
        sum(tips_minor) AS tips_total,
        sum(refunds_minor) AS refunds_total
    FROM trips
    WHERE requested_at >= $4::timestamptz AND requested_at < $5::timestamptz
      AND status = ANY ($6::text[]) AND city = $7
    GROUP BY 1, 2
) buckets
ORDER BY 1, 2
$statement$;

-- The analysts' feed, fanned out ---------------------------------------------------------------------------
-- A position in the analysts' feed is a transaction id of the server that handed it out, so each partition is
-- read after its own position, and answers with the identity of the server it is on (system identifier, shared
-- by a physical standby, so a failover keeps it; a move changes it and counts `moves`): the service refuses a
-- token whose partitions are no longer where it was read (410) rather than read its ids on another server.

-- statement: trip_changes_analyst_page_v2 (AnalystChangesPage)
CREATE OR REPLACE FUNCTION trip_changes_analyst_page_v2(
    after_xid text, after_rider bigint, after_seq bigint, lim bigint
) RETURNS TABLE (
    behind boolean, change_xid bigint, change_rider_id bigint, change_seq bigint, change text, trip_id bigint,
    trip_exists boolean, id bigint, rider_id bigint, status text, product text, city text, time_zone text,
    requested_at timestamptz, started_at timestamptz, completed_at timestamptz, pickup_lat double precision,
    pickup_lon double precision, pickup_address text, dropoff_lat double precision, dropoff_lon double precision,
    dropoff_address text, distance_m bigint, duration_s bigint, fare_amount_minor bigint, fare_currency char(3),
    version integer, recorded_at timestamptz, updated_at timestamptz, tips_minor bigint, refunds_minor bigint,
    corrections_minor bigint
)
LANGUAGE sql STABLE AS $statement$
SELECT mark.behind, c.xid::text::bigint, c.rider_id, c.seq, c.change, c.trip_id, trips.id IS NOT NULL,
    trips.id, trips.rider_id, trips.status, trips.product, trips.city, trips.time_zone, trips.requested_at, trips.started_at, trips.completed_at, trips.pickup_lat, trips.pickup_lon, trips.pickup_address, trips.dropoff_lat, trips.dropoff_lon, trips.dropoff_address, trips.distance_m, trips.duration_s, trips.fare_amount_minor, trips.fare_currency, trips.version, trips.recorded_at, trips.updated_at, trips.tips_minor, trips.refunds_minor, trips.corrections_minor
FROM (
    SELECT EXISTS (
        SELECT 1 FROM analyst_change_purge p
        WHERE (p.xid, p.rider_id, p.seq) > ($1::text::xid8, $2::bigint, $3::bigint)
    ) AS behind
) mark
LEFT JOIN LATERAL (
    SELECT xid, rider_id, seq, change, trip_id FROM trip_changes c
    WHERE c.xid IS NOT NULL AND (c.xid, c.rider_id, c.seq) > ($1::text::xid8, $2::bigint, $3::bigint)
      AND c.xid < pg_snapshot_xmin(pg_current_snapshot()) AND NOT mark.behind
    ORDER BY c.xid, c.rider_id, c.seq
    LIMIT $4
) c ON true
LEFT JOIN trips ON trips.id = c.trip_id AND c.change = 'upsert'
ORDER BY c.xid, c.rider_id, c.seq
$statement$;

-- This partition's page of the analysts' feed after its own position, which the token's arrays hold at index
-- partition + 1 (RUN ON ALL passes every partition the same arguments); each row led by the partition's number
-- and identity.
CREATE OR REPLACE FUNCTION trip_history_analyst_changes(
    after_xids text[], after_riders bigint[], after_seqs bigint[], lim bigint
) RETURNS SETOF trip_history_analyst_change
LANGUAGE sql STABLE AS $$
    SELECT p.partition, s.system_identifier, p.moves, page.*
    FROM trip_history_partition AS p
    CROSS JOIN pg_control_system() AS s
    CROSS JOIN LATERAL trip_changes_analyst_page_v2(
        after_xids[p.partition + 1], after_riders[p.partition + 1], after_seqs[p.partition + 1], lim) AS page
$$;

-- This partition's position for now (the oldest transaction still running, as OldestRunningTransaction reads
-- it) with its number and identity.
CREATE OR REPLACE FUNCTION trip_history_analyst_feed_now(
    OUT partition integer, OUT system_identifier bigint, OUT moves integer, OUT oldest_xid bigint
) RETURNS SETOF record
LANGUAGE sql STABLE AS $$
    SELECT p.partition, s.system_identifier, p.moves, pg_snapshot_xmin(pg_current_snapshot())::text::bigint
    FROM trip_history_partition AS p CROSS JOIN pg_control_system() AS s
$$;
