-- TripStatements.older, run as the repository runs it: prepared (-M prepared), every value a parameter.
-- bench/run passes what PostgresTripRepository sends for a rider's first page of 20 (21 rows fetched to learn
-- whether more exist): -D lo=-infinity -D hi=infinity -D at=infinity -D id=-9223372036854775808
-- -D statuses={completed,canceled} -D fetch=21 -D riders=N; the rider is random among the seeded ones.
\set rider random(1, :riders)
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at,
    pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address,
    distance_m, duration_s, fare_amount_minor, fare_currency,
    version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE rider_id = :rider AND requested_at >= :lo::timestamptz AND requested_at < :hi::timestamptz
  AND (requested_at, id) < (:at::timestamptz, :id::bigint) AND status = ANY (:statuses::text[])
ORDER BY requested_at DESC, id DESC
LIMIT :fetch;
