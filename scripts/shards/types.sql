-- The row types the partitions' functions return and the proxy's functions pass on, installed in every
-- partition database and in the proxy (scripts/lib/shards.sh) so that both sides declare the same columns.
-- Their columns are the service's: TripStatements.columns, then for a detail TripStatements.detailColumns, in
-- the order TripRowDecoder reads them. Created once; a change is a new type name.
DO $$
BEGIN
    IF to_regtype('trip_history_trip') IS NULL THEN
        CREATE TYPE trip_history_trip AS (
            id bigint, rider_id bigint, status text, product text, city text, time_zone text,
            requested_at timestamptz, started_at timestamptz, completed_at timestamptz,
            pickup_lat double precision, pickup_lon double precision, pickup_address text,
            dropoff_lat double precision, dropoff_lon double precision, dropoff_address text,
            distance_m bigint, duration_s bigint, fare_amount_minor bigint, fare_currency char(3),
            version integer, recorded_at timestamptz, updated_at timestamptz,
            tips_minor bigint, refunds_minor bigint, corrections_minor bigint
        );
    END IF;
    -- A trip with its receipt's parts and its ledger (a JSON array), as a detail, a receipt and an export read it.
    IF to_regtype('trip_history_trip_detail') IS NULL THEN
        CREATE TYPE trip_history_trip_detail AS (
            id bigint, rider_id bigint, status text, product text, city text, time_zone text,
            requested_at timestamptz, started_at timestamptz, completed_at timestamptz,
            pickup_lat double precision, pickup_lon double precision, pickup_address text,
            dropoff_lat double precision, dropoff_lon double precision, dropoff_address text,
            distance_m bigint, duration_s bigint, fare_amount_minor bigint, fare_currency char(3),
            version integer, recorded_at timestamptz, updated_at timestamptz,
            tips_minor bigint, refunds_minor bigint, corrections_minor bigint,
            fare_breakdown text, payment_method text, payment_brand text, payment_last4 text,
            driver_first_name text, vehicle_make text, vehicle_model text, vehicle_color text, vehicle_plate text,
            route_polyline text, adjustments text
        );
    END IF;
    -- A trip with its fare breakdown and its ledger (a JSON array), as the analysts' export reads it with
    -- `include` (TripStatements.ledgerColumns).
    IF to_regtype('trip_history_trip_ledger') IS NULL THEN
        CREATE TYPE trip_history_trip_ledger AS (
            id bigint, rider_id bigint, status text, product text, city text, time_zone text,
            requested_at timestamptz, started_at timestamptz, completed_at timestamptz,
            pickup_lat double precision, pickup_lon double precision, pickup_address text,
            dropoff_lat double precision, dropoff_lon double precision, dropoff_address text,
            distance_m bigint, duration_s bigint, fare_amount_minor bigint, fare_currency char(3),
            version integer, recorded_at timestamptz, updated_at timestamptz,
            tips_minor bigint, refunds_minor bigint, corrections_minor bigint,
            fare_breakdown text, adjustments text
        );
    END IF;
    -- One row of a rider's changes feed page (RiderChangesPage): whether the purge is past the position, the
    -- entry, and its trip when it still exists.
    IF to_regtype('trip_history_change') IS NULL THEN
        CREATE TYPE trip_history_change AS (
            behind boolean, seq bigint, change text, trip_id bigint, trip_exists boolean,
            id bigint, rider_id bigint, status text, product text, city text, time_zone text,
            requested_at timestamptz, started_at timestamptz, completed_at timestamptz,
            pickup_lat double precision, pickup_lon double precision, pickup_address text,
            dropoff_lat double precision, dropoff_lon double precision, dropoff_address text,
            distance_m bigint, duration_s bigint, fare_amount_minor bigint, fare_currency char(3),
            version integer, recorded_at timestamptz, updated_at timestamptz,
            tips_minor bigint, refunds_minor bigint, corrections_minor bigint
        );
    END IF;
    -- The same per local period, value of a dimension (city or product) and currency (AnalystStatsParts by it).
    IF to_regtype('trip_history_stats_by_part') IS NULL THEN
        CREATE TYPE trip_history_stats_by_part AS (
            local_start timestamp, value text, fare_currency char(3), trips bigint, completed bigint,
            canceled bigint, fare_total numeric, distance_total numeric, completed_duration numeric,
            tips_total numeric, refunds_total numeric
        );
    END IF;
    -- One row of a partition's page of the analysts' feed (trip_history_analyst_changes): the partition's number
    -- and identity (its server's system identifier, its moves), then AnalystChangesPage's row.
    IF to_regtype('trip_history_analyst_change') IS NULL THEN
        CREATE TYPE trip_history_analyst_change AS (
            partition integer, system_identifier bigint, moves integer,
            behind boolean, change_xid bigint, change_rider_id bigint, change_seq bigint, change text,
            trip_id bigint, trip_exists boolean,
            id bigint, rider_id bigint, status text, product text, city text, time_zone text,
            requested_at timestamptz, started_at timestamptz, completed_at timestamptz,
            pickup_lat double precision, pickup_lon double precision, pickup_address text,
            dropoff_lat double precision, dropoff_lon double precision, dropoff_address text,
            distance_m bigint, duration_s bigint, fare_amount_minor bigint, fare_currency char(3),
            version integer, recorded_at timestamptz, updated_at timestamptz,
            tips_minor bigint, refunds_minor bigint, corrections_minor bigint
        );
    END IF;
    -- One partition's aggregates of one local period and currency (AnalystStats' inner query): the proxy adds
    -- the partitions' rows up per period and currency.
    IF to_regtype('trip_history_stats_part') IS NULL THEN
        CREATE TYPE trip_history_stats_part AS (
            local_start timestamp, fare_currency char(3), trips bigint, completed bigint, canceled bigint,
            fare_total numeric, distance_total numeric, completed_duration numeric, tips_total numeric,
            refunds_total numeric
        );
    END IF;
END
$$;
