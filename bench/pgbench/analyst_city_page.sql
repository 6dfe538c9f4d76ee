-- AnalystTripsPage (older, with a city filter) for an analyst's first page of a city's month, prepared
-- (-M prepared): bench/run passes -D city=... -D lo=... -D hi=... (the month), the key of a first read as
-- KeysetStart binds it (-D at=<hi> -D id=-9223372036854775808), -D statuses={completed,canceled} and -D fetch=101
-- (a page of 100 and one more).
SELECT id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at,
    pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address,
    distance_m, duration_s, fare_amount_minor, fare_currency,
    version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor FROM trips
WHERE requested_at >= :lo::timestamptz AND requested_at < :hi::timestamptz
  AND (requested_at, id) < (:at::timestamptz, :id::bigint) AND status = ANY (:statuses::text[]) AND city = :city
ORDER BY requested_at DESC, id DESC
LIMIT :fetch;
