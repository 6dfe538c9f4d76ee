-- Finished trips, one row each. The checks mirror NewTrip.validated so that no writer can store a trip
-- the domain would reject.
CREATE TABLE trips (
    id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    rider_id          bigint      NOT NULL CHECK (rider_id > 0),
    status            text        NOT NULL CHECK (status IN ('completed', 'canceled')),
    product           text        NOT NULL CHECK (octet_length(product) BETWEEN 1 AND 512),
    city              text        NOT NULL CHECK (octet_length(city) BETWEEN 1 AND 512),
    time_zone         text        NOT NULL CHECK (octet_length(time_zone) BETWEEN 1 AND 64),
    requested_at      timestamptz NOT NULL CHECK (isfinite(requested_at)),
    started_at        timestamptz NOT NULL CHECK (isfinite(started_at)),
    completed_at      timestamptz NULL CHECK (isfinite(completed_at)),
    pickup_lat        double precision NOT NULL CHECK (pickup_lat BETWEEN -90 AND 90),
    pickup_lon        double precision NOT NULL CHECK (pickup_lon BETWEEN -180 AND 180),
    pickup_address    text        NOT NULL CHECK (octet_length(pickup_address) BETWEEN 1 AND 512),
    dropoff_lat       double precision NOT NULL CHECK (dropoff_lat BETWEEN -90 AND 90),
    dropoff_lon       double precision NOT NULL CHECK (dropoff_lon BETWEEN -180 AND 180),
    dropoff_address   text        NOT NULL CHECK (octet_length(dropoff_address) BETWEEN 1 AND 512),
    distance_m        bigint      NOT NULL CHECK (distance_m >= 0),
    duration_s        bigint      NOT NULL CHECK (duration_s >= 0),
    fare_amount_minor bigint      NOT NULL CHECK (fare_amount_minor >= 0),
    fare_currency     char(3)     NOT NULL CHECK (fare_currency ~ '^[A-Z]{3}$'),
    CONSTRAINT trips_completed_at_iff_completed CHECK ((status = 'canceled') = (completed_at IS NULL)),
    CONSTRAINT trips_started_after_requested CHECK (started_at >= requested_at),
    CONSTRAINT trips_completed_after_started CHECK (completed_at >= started_at)
);

-- Serves every history page as one index range scan: equality on the rider, then the keyset order.
CREATE INDEX trips_rider_history ON trips (rider_id, requested_at DESC, id DESC);
