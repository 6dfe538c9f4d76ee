-- A trip's life after the ride: its version and adjustment totals on the trip itself (so lists, exports and
-- stats need not read the ledger), the receipt's parts and the ledger of adjustments in tables of their own
-- (so the rows every list page reads stay narrow), and the changes feed.
--
-- Online on a large table: every column added to trips has a constant or stable default, which PostgreSQL
-- keeps in the catalog instead of rewriting the table, and the checks on them are NOT VALID, so they bind new
-- writes without scanning old rows (whose defaults satisfy them). The ALTER still needs a brief exclusive
-- lock; lock_timeout makes it give up instead of queueing every read and write behind a long query.
SET LOCAL lock_timeout = '1s';

-- Rows recorded before this migration get its time as recorded_at and updated_at.
ALTER TABLE trips
    ADD COLUMN version integer NOT NULL DEFAULT 1,
    ADD COLUMN recorded_at timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now(),
    ADD COLUMN tips_minor bigint NOT NULL DEFAULT 0,
    ADD COLUMN refunds_minor bigint NOT NULL DEFAULT 0,
    ADD COLUMN corrections_minor bigint NOT NULL DEFAULT 0,
    ADD CONSTRAINT trips_version_positive CHECK (version >= 1) NOT VALID,
    ADD CONSTRAINT trips_tips_not_negative CHECK (tips_minor >= 0) NOT VALID,
    ADD CONSTRAINT trips_refunds_not_positive CHECK (refunds_minor <= 0) NOT VALID,
    ADD CONSTRAINT trips_total_not_negative
        CHECK (fare_amount_minor + tips_minor + refunds_minor + corrections_minor >= 0) NOT VALID;

-- What a receipt shows beyond the trip's own fields, one row per trip that reported any of it. The
-- breakdown is a JSON array of {"kind", "amount_minor"}, as the API takes it.
CREATE TABLE trip_receipts (
    trip_id           bigint PRIMARY KEY REFERENCES trips (id) ON DELETE CASCADE,
    fare_breakdown    jsonb NULL CHECK (jsonb_typeof(fare_breakdown) = 'array'),
    payment_method    text  NULL CHECK (payment_method IN ('card', 'cash', 'wallet')),
    payment_brand     text  NULL CHECK (octet_length(payment_brand) BETWEEN 1 AND 32),
    payment_last4     text  NULL CHECK (payment_last4 ~ '^[0-9]{4}$'),
    driver_first_name text  NULL CHECK (octet_length(driver_first_name) BETWEEN 1 AND 64),
    vehicle_make      text  NULL CHECK (octet_length(vehicle_make) BETWEEN 1 AND 64),
    vehicle_model     text  NULL CHECK (octet_length(vehicle_model) BETWEEN 1 AND 64),
    vehicle_color     text  NULL CHECK (octet_length(vehicle_color) BETWEEN 1 AND 64),
    vehicle_plate     text  NULL CHECK (octet_length(vehicle_plate) BETWEEN 1 AND 64),
    route_polyline    text  NULL CHECK (octet_length(route_polyline) BETWEEN 1 AND 16384)
);

-- The ledger: appended, never updated. A trip's totals on trips are the sums of its rows here.
CREATE TABLE trip_adjustments (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    trip_id      bigint      NOT NULL REFERENCES trips (id) ON DELETE CASCADE,
    kind         text        NOT NULL CHECK (kind IN ('tip', 'refund', 'fare_correction')),
    amount_minor bigint      NOT NULL CHECK (amount_minor <> 0),
    reason       text        NOT NULL CHECK (octet_length(reason) BETWEEN 1 AND 512),
    created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX trip_adjustments_trip ON trip_adjustments (trip_id, id);

-- The changes feed: one row per trip recorded, adjusted or erased, written in the same transaction. Each takes
-- the next number of its rider's own sequence from rider_change_counters, whose row stays locked until the
-- transaction ends: a rider's changes therefore commit in the order of their numbers, and a reader that asks
-- for the numbers after the last one it saw never skips one that committed late nor sees one twice.
CREATE TABLE rider_change_counters (
    rider_id bigint PRIMARY KEY,
    last_seq bigint NOT NULL CHECK (last_seq > 0)
);

CREATE TABLE trip_changes (
    rider_id   bigint      NOT NULL,
    seq        bigint      NOT NULL,
    trip_id    bigint      NOT NULL,
    change     text        NOT NULL CHECK (change IN ('upsert', 'erased')),
    changed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (rider_id, seq)
);
-- Lets the purge of changes past the feed's retention find them without scanning the table.
CREATE INDEX trip_changes_changed_at ON trip_changes (changed_at);
