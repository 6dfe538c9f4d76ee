-- TripStatements.older for page 500 of the deep rider, prepared (-M prepared): bench/run passes the position
-- (the last trip of page 499) as -D at=... -D id=..., and -D deep_rider, lo, hi, statuses, fetch as for
-- first_page.sql.
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at,
    pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address,
    distance_m, duration_s, fare_amount_minor, fare_currency,
    version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE rider_id = :deep_rider AND requested_at >= :lo::timestamptz AND requested_at < :hi::timestamptz
  AND (requested_at, id) < (:at::timestamptz, :id::bigint) AND status = ANY (:statuses::text[])
ORDER BY requested_at DESC, id DESC
LIMIT :fetch;
