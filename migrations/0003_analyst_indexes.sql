-- Access paths of the cross-rider analyst reads (GET /v1/trips, its exports, GET /v1/trips/stats).
-- Both keep the keyset order (requested_at DESC, id DESC) so list pages and export batches are index range
-- scans, and INCLUDE the columns the stats aggregate reads, so a stats query is an index-only scan once the
-- table is vacuumed. A rider filter uses trips_rider_history from 0001.

-- A city's trips in a window: the common analyst question ("Paris, last year").
CREATE INDEX trips_city_time ON trips (city, requested_at DESC, id DESC)
    INCLUDE (status, product, fare_currency, fare_amount_minor, distance_m, duration_s);

-- Every trip in a window, for queries without a city or rider (product and status filter on top).
CREATE INDEX trips_time ON trips (requested_at DESC, id DESC)
    INCLUDE (status, product, fare_currency, fare_amount_minor, distance_m, duration_s);
