/// Writes, set-based in the seeding transaction, what the seeded trips' receipts and ledgers hold: from the
/// trips just copied (their ids exist only once stored), a receipt per trip with a fare (a breakdown that
/// sums to the fare, a payment, a driver and car, and for a completed trip a route bending from pickup to
/// dropoff), and the ledger rows of the tips and refunds the generator put in their totals. Every choice is
/// a hash of the trip's id, so the same rows always get the same receipts.
enum SeedReceipts {
    static func write(riders: ClosedRange<Int>, on connection: PostgresConnection) throws {
        try connection.execute(unsafeSQL: polylineFunctions)
        let range = "rider_id BETWEEN \(riders.lowerBound) AND \(riders.upperBound)"
        try connection.execute(
            unsafeSQL: """
                INSERT INTO trip_receipts (trip_id, fare_breakdown, payment_method, payment_brand, payment_last4,
                    driver_first_name, vehicle_make, vehicle_model, vehicle_color, vehicle_plate, route_polyline)
                SELECT id,
                    CASE WHEN status = 'canceled' THEN jsonb_build_array(
                            jsonb_build_object('kind', 'booking_fee', 'amount_minor', fare_amount_minor))
                        ELSE jsonb_build_array(
                            jsonb_build_object('kind', 'base', 'amount_minor', fare_amount_minor * 25 / 100),
                            jsonb_build_object('kind', 'distance', 'amount_minor', fare_amount_minor * 45 / 100),
                            jsonb_build_object('kind', 'time', 'amount_minor', fare_amount_minor * 20 / 100),
                            jsonb_build_object('kind', 'booking_fee', 'amount_minor', fare_amount_minor
                                - fare_amount_minor * 25 / 100 - fare_amount_minor * 45 / 100
                                - fare_amount_minor * 20 / 100)) END,
                    (ARRAY['card', 'card', 'card', 'card', 'card', 'card', 'wallet', 'wallet', 'cash', 'card'])[(1 + h % 10)::int],
                    CASE WHEN h % 10 = 8 THEN NULL
                        WHEN h % 10 IN (6, 7) THEN (ARRAY['apple_pay', 'google_pay'])[(1 + h / 10 % 2)::int]
                        ELSE (ARRAY['visa', 'mastercard', 'amex'])[(1 + h / 10 % 3)::int] END,
                    CASE WHEN h % 10 = 8 THEN NULL ELSE lpad((h / 100 % 10000)::text, 4, '0') END,
                    (ARRAY['Amélie', 'Hiroshi', 'Sofia', 'Kwame', 'Priya', 'Lukas', 'Mateo', 'Aisha', 'Chen', 'Olivia'])[(1 + h / 7 % 10)::int],
                    (ARRAY['Toyota', 'Tesla', 'Hyundai', 'Renault', 'Skoda'])[(1 + h / 11 % 5)::int],
                    (ARRAY['Prius', 'Model 3', 'Ioniq 5', 'Zoe', 'Octavia'])[(1 + h / 11 % 5)::int],
                    (ARRAY['white', 'black', 'silver', 'blue', 'red'])[(1 + h / 13 % 5)::int],
                    upper(substr(md5(id::text), 1, 3)) || '-' || (100 + h / 17 % 900)::text,
                    CASE WHEN status = 'completed' THEN pg_temp.seed_route(
                        pickup_lat, pickup_lon, dropoff_lat, dropoff_lon, ((h / 19 % 200) - 100) / 100000.0) END
                FROM (SELECT *, hashint8(id) & 9223372036854775807 AS h FROM trips WHERE \(range) AND fare_amount_minor > 0) t
                """)
        try connection.execute(
            unsafeSQL: """
                INSERT INTO trip_adjustments (trip_id, kind, amount_minor, reason, created_at)
                SELECT id, 'tip', tips_minor, 'In-app tip',
                    CASE WHEN refunds_minor < 0 THEN recorded_at + (updated_at - recorded_at) / 2 ELSE updated_at END
                FROM trips WHERE \(range) AND tips_minor > 0
                ORDER BY id
                """)
        try connection.execute(
            unsafeSQL: """
                INSERT INTO trip_adjustments (trip_id, kind, amount_minor, reason, created_at)
                SELECT id, 'refund', refunds_minor, 'Route longer than needed', updated_at
                FROM trips WHERE \(range) AND refunds_minor < 0
                ORDER BY id
                """)
    }

    /// Google's polyline encoding (precision 5) in SQL, for routes of four points from pickup to dropoff,
    /// the middle two pushed aside by `bend` degrees; temporary, gone with the seeding session.
    private static let polylineFunctions = """
        CREATE OR REPLACE FUNCTION pg_temp.seed_polyline_value(v bigint) RETURNS text
        LANGUAGE plpgsql IMMUTABLE AS $$
        DECLARE
            bits bigint := CASE WHEN v < 0 THEN ~(v << 1) ELSE v << 1 END;
            encoded text := '';
        BEGIN
            WHILE bits >= 32 LOOP
                encoded := encoded || chr(((bits & 31) | 32)::int + 63);
                bits := bits >> 5;
            END LOOP;
            RETURN encoded || chr(bits::int + 63);
        END $$;
        CREATE OR REPLACE FUNCTION pg_temp.seed_route(
            lat1 float8, lon1 float8, lat2 float8, lon2 float8, bend float8) RETURNS text
        LANGUAGE plpgsql IMMUTABLE AS $$
        DECLARE
            lats bigint[] := ARRAY[
                round(lat1 * 1e5), round((lat1 + (lat2 - lat1) / 3 + bend) * 1e5),
                round((lat1 + 2 * (lat2 - lat1) / 3 + bend) * 1e5), round(lat2 * 1e5)];
            lons bigint[] := ARRAY[
                round(lon1 * 1e5), round((lon1 + (lon2 - lon1) / 3 - bend) * 1e5),
                round((lon1 + 2 * (lon2 - lon1) / 3 - bend) * 1e5), round(lon2 * 1e5)];
            encoded text := '';
            previous_lat bigint := 0;
            previous_lon bigint := 0;
        BEGIN
            FOR i IN 1..4 LOOP
                encoded := encoded || pg_temp.seed_polyline_value(lats[i] - previous_lat)
                    || pg_temp.seed_polyline_value(lons[i] - previous_lon);
                previous_lat := lats[i];
                previous_lon := lons[i];
            END LOOP;
            RETURN encoded;
        END $$;
        """
}
