-- What partitions trips by the UTC year of requested_at, so that trips past the retention leave a year at a
-- time by DETACH and DROP instead of row by row (docs/SCALING.md says why a year and not a month). Partition
-- trips_yYYYY holds one year; its indexes are named after it. A year gets its partition when a trip of it is
-- first written (trips_ensure_partition, called by the writers that meet the missing partition) or ahead of
-- time by the service's maintenance job.
--
-- Partitioning is what a retention needs, and it costs every read that cannot prune (BENCHMARKS.md), so it is
-- not done here: `trip-history partition-trips` does it, online, with the functions below (a mirror trigger, a
-- copy in short batches, then a swap of names under a lock that gives up after a second instead of queueing
-- reads and writes), at once on an empty table. Everything here also works on the unpartitioned table.
SET LOCAL lock_timeout = '1s';

-- A foreign key to a partitioned table must name its partition key, which receipts, ledger rows and idempotency
-- keys do not carry: they name their trip by id alone, and the erasure and the retention delete them explicitly.
ALTER TABLE trip_receipts DROP CONSTRAINT trip_receipts_trip_id_fkey;
ALTER TABLE trip_adjustments DROP CONSTRAINT trip_adjustments_trip_id_fkey;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_trip_id_fkey;

-- Creates, if it has none, the partition of `parent` for the UTC year of `at`, with the parent's columns,
-- checks and indexes, and attaches it (which blocks neither reads nor writes of the parent). Returns the
-- partition's name; does nothing and returns NULL when `parent` is not partitioned. Concurrent callers queue on
-- an advisory lock, so a year is created once.
CREATE FUNCTION trips_ensure_partition(parent regclass, at timestamptz) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    year constant integer := extract(year FROM at AT TIME ZONE 'UTC');
    name constant text := 'trips_y' || year;
    -- Through date_trunc, not make_timestamptz: the year after 1 BC (year -1 here) is 1 AD, not a year 0.
    lower_bound constant timestamptz := date_trunc('year', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    upper_bound constant timestamptz := (date_trunc('year', at AT TIME ZONE 'UTC') + interval '1 year') AT TIME ZONE 'UTC';
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_partitioned_table WHERE partrelid = parent) THEN
        RETURN NULL;
    END IF;
    PERFORM pg_advisory_xact_lock(hashtext('trips_ensure_partition'), hashtext(parent::oid::text));
    IF to_regclass(quote_ident(name)) IS NOT NULL THEN
        RETURN name;
    END IF;
    EXECUTE format('CREATE TABLE %I (LIKE %s INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name, parent);
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (id, requested_at)', name, name || '_pkey');
    EXECUTE format('CREATE INDEX %I ON %I (rider_id, requested_at DESC, id DESC)', name || '_rider_history', name);
    EXECUTE format('CREATE INDEX %I ON %I (city, requested_at DESC, id DESC)'
        ' INCLUDE (status, product, fare_currency, fare_amount_minor, distance_m, duration_s)',
        name || '_city_time', name);
    EXECUTE format('CREATE INDEX %I ON %I (requested_at DESC, id DESC)'
        ' INCLUDE (status, product, fare_currency, fare_amount_minor, distance_m, duration_s)',
        name || '_time', name);
    EXECUTE format('ALTER TABLE %s ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)',
        parent, name, lower_bound, upper_bound);
    RETURN name;
END $$;

-- The partitions of every year from `first` to `last`, for loaders that write many years at once.
CREATE FUNCTION trips_ensure_partitions(parent regclass, first timestamptz, last timestamptz) RETURNS void
LANGUAGE sql AS $$
    SELECT trips_ensure_partition(parent, year)
    FROM generate_series(date_trunc('year', first AT TIME ZONE 'UTC'), last AT TIME ZONE 'UTC', interval '1 year')
        AS years(year)
$$;

-- Step 1 of partitioning a populated table: the partitioned twin `trips_partitioned` (same columns in the same
-- order, so prepared statements keep their result types across the swap; ids from a sequence of its own), a
-- partition per year the table spans, and a trigger that mirrors every write of trips into it from now on.
CREATE FUNCTION trips_partitioning_begin() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    CREATE TABLE trips_partitioned (LIKE trips INCLUDING DEFAULTS INCLUDING CONSTRAINTS)
        PARTITION BY RANGE (requested_at);
    CREATE SEQUENCE trips_partitioned_id_seq AS bigint OWNED BY trips_partitioned.id;
    ALTER TABLE trips_partitioned ALTER COLUMN id SET DEFAULT nextval('trips_partitioned_id_seq');
    ALTER TABLE trips_partitioned ADD CONSTRAINT trips_partitioned_pkey PRIMARY KEY (id, requested_at);
    CREATE INDEX trips_partitioned_rider_history ON trips_partitioned (rider_id, requested_at DESC, id DESC);
    CREATE INDEX trips_partitioned_city_time ON trips_partitioned (city, requested_at DESC, id DESC)
        INCLUDE (status, product, fare_currency, fare_amount_minor, distance_m, duration_s);
    CREATE INDEX trips_partitioned_time ON trips_partitioned (requested_at DESC, id DESC)
        INCLUDE (status, product, fare_currency, fare_amount_minor, distance_m, duration_s);
    -- The years' partitions before the trigger, so writers do not wait while they are made; again after it,
    -- for a year a write committed meanwhile (CREATE TRIGGER waits for the writes in flight, later ones are
    -- mirrored).
    PERFORM trips_partitioning_years();
    CREATE TRIGGER trips_partitioning_mirror AFTER INSERT OR UPDATE OR DELETE ON trips
        FOR EACH ROW EXECUTE FUNCTION trips_partitioning_mirror();
    PERFORM trips_partitioning_years();
END $$;

-- The twin's partitions of the years that hold trips (found through trips_time, one probe per year) and of
-- the current year.
CREATE FUNCTION trips_partitioning_years() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM trips_ensure_partition('trips_partitioned', years.at) FROM (
        WITH RECURSIVE years(at) AS (
            SELECT min(requested_at) FROM trips
            UNION ALL
            SELECT (SELECT min(requested_at) FROM trips
                    WHERE requested_at >= (date_trunc('year', years.at AT TIME ZONE 'UTC') + interval '1 year')
                        AT TIME ZONE 'UTC')
            FROM years WHERE years.at IS NOT NULL
        )
        SELECT at FROM years WHERE at IS NOT NULL UNION ALL SELECT now()
    ) AS years;
END $$;

-- The mirror: a deleted or updated row leaves the twin, an inserted or updated one enters it (creating its
-- year's partition if it has none). A row the copy has not reached yet is simply copied later as it then is.
CREATE FUNCTION trips_partitioning_mirror() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        DELETE FROM trips_partitioned WHERE id = OLD.id AND requested_at = OLD.requested_at;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        IF to_regclass(quote_ident('trips_y' || extract(year FROM NEW.requested_at AT TIME ZONE 'UTC'))) IS NULL
        THEN
            PERFORM trips_ensure_partition('trips_partitioned', NEW.requested_at);
        END IF;
        INSERT INTO trips_partitioned SELECT NEW.*;
    END IF;
    RETURN NULL;
END $$;

-- Step 2: copies the next `batch` trips after id `after` into the twin; returns the last id read (NULL once
-- none is left) and how many rows were read. The rows are share-locked until the batch commits, so a write of
-- one of them waits for the copy and its mirror then finds the row; a row the mirror already wrote is left as
-- the mirror wrote it.
CREATE FUNCTION trips_partitioning_copy(after bigint, batch integer, OUT last_id bigint, OUT rows bigint)
LANGUAGE plpgsql AS $$
BEGIN
    WITH batch_rows AS (
        SELECT * FROM trips WHERE id > after ORDER BY id LIMIT batch FOR SHARE
    ), copied AS (
        INSERT INTO trips_partitioned SELECT * FROM batch_rows ON CONFLICT DO NOTHING
    )
    SELECT max(id), count(*) INTO last_id, rows FROM batch_rows;
END $$;

-- Step 3, under lock_timeout: with trips locked (reads and writes wait, for as long as this takes), the twin
-- takes over the name, the indexes' names and the id sequence's position; the old table stays as
-- trips_unpartitioned, without its trigger, for the caller to drop.
CREATE FUNCTION trips_partitioning_swap() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    old_sequence regclass;
BEGIN
    LOCK TABLE trips IN ACCESS EXCLUSIVE MODE;
    old_sequence := pg_get_serial_sequence('trips', 'id');
    PERFORM setval('trips_partitioned_id_seq', coalesce(pg_sequence_last_value(old_sequence), 0) + 1, false);
    DROP TRIGGER trips_partitioning_mirror ON trips;
    ALTER TABLE trips RENAME TO trips_unpartitioned;
    ALTER INDEX trips_pkey RENAME TO trips_unpartitioned_pkey;
    ALTER INDEX trips_rider_history RENAME TO trips_unpartitioned_rider_history;
    ALTER INDEX trips_city_time RENAME TO trips_unpartitioned_city_time;
    ALTER INDEX trips_time RENAME TO trips_unpartitioned_time;
    ALTER TABLE trips_partitioned RENAME TO trips;
    ALTER INDEX trips_partitioned_pkey RENAME TO trips_pkey;
    ALTER INDEX trips_partitioned_rider_history RENAME TO trips_rider_history;
    ALTER INDEX trips_partitioned_city_time RENAME TO trips_city_time;
    ALTER INDEX trips_partitioned_time RENAME TO trips_time;
    EXECUTE format('ALTER SEQUENCE %s RENAME TO trips_unpartitioned_id_seq', old_sequence);
    ALTER SEQUENCE trips_partitioned_id_seq RENAME TO trips_id_seq;
END $$;

-- Years of trips past the retention, detached from trips and being reported to their riders' feeds: the last
-- trip id reported, so a removal that stopped midway goes on from there (ExpiredTripRemover).
CREATE TABLE trip_retirements (
    year             integer PRIMARY KEY,
    reported_through bigint  NOT NULL
);
