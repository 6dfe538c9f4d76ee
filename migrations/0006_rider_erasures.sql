-- The audit of riders' erasures (GDPR Article 17): one row per request, holding no personal data beyond the
-- rider's id, kept as proof that the request was honoured. A trip requested before its rider's last erasure
-- is refused when recorded afterwards, so the index serves that check on every recorded trip.
CREATE TABLE rider_erasures (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    rider_id     bigint      NOT NULL,
    erased_at    timestamptz NOT NULL DEFAULT now(),
    trips        integer     NOT NULL CHECK (trips >= 0),
    adjustments  integer     NOT NULL CHECK (adjustments >= 0),
    requested_by text        NOT NULL CHECK (octet_length(requested_by) BETWEEN 1 AND 255)
);
CREATE INDEX rider_erasures_rider ON rider_erasures (rider_id, erased_at);
