-- One row per idempotency key a caller used to record a trip. The fingerprint is stored as an md5 of the
-- canonical request so that long bodies cost 32 bytes; it only has to tell two requests apart.
CREATE TABLE idempotency_keys (
    scope           text        NOT NULL,
    key             text        NOT NULL CHECK (octet_length(key) BETWEEN 1 AND 255),
    fingerprint_md5 text        NOT NULL,
    trip_id         bigint      NOT NULL REFERENCES trips (id) ON DELETE CASCADE,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (scope, key)
);

-- Lets deleting trips (e.g. when reseeding) find their keys without scanning the table.
CREATE INDEX idempotency_keys_trip ON idempotency_keys (trip_id);
