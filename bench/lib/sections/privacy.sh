# shellcheck shell=bash
# The data-rights section (BENCH_ONLY=privacy): for PRIVACY_ROUNDS riders of PRIVACY_TRIPS trips each (seeded
# with the service's seeder, every trip given one adjustment), the rider's own CSV and NDJSON exports and the
# erasure of the rider, each timed with curl against an uncached service. Bounded: every curl times out.
# Then the retention: RETENTION_RIDERS riders of RETENTION_TRIPS trips moved twenty years back, removed by
# `trip-history remove-expired`, timed with the WAL it wrote.

run_privacy_section() {
    th_log "data-rights section: $PRIVACY_ROUNDS riders of $PRIVACY_TRIPS trips"
    local privacy_token round rider token result status format seconds bytes
    privacy_token=$("$BIN/trip-history" token --role privacy --ttl 86400)
    start_server uncached
    PV_ERASE_MS=() PV_CSV_MS=() PV_NDJSON_MS=() PV_CSV_BYTES=0 PV_NDJSON_BYTES=0
    for ((round = 1; round <= PRIVACY_ROUNDS; round++)); do
        rider=$((DEEP_RIDER + 1000 + round))
        "$BIN/trip-history" seed --riders 1 --first-rider "$rider" --trips-per-rider "$PRIVACY_TRIPS" \
            --seed "$round" >/dev/null 2>&1
        psql_run -c "WITH a AS (INSERT INTO trip_adjustments (trip_id, kind, amount_minor, reason)
                SELECT id, 'tip', 100, 'bench tip' FROM trips WHERE rider_id = $rider RETURNING trip_id)
            UPDATE trips SET tips_minor = tips_minor + 100, version = version + 1 WHERE id IN (SELECT trip_id FROM a)" \
            -c "ANALYZE trips, trip_adjustments" >/dev/null
        token=$("$BIN/trip-history" token --role rider --rider "$rider" --ttl 3600)
        for format in csv ndjson; do
            result=$(curl -sS -o /dev/null -m 60 -w '%{http_code} %{time_total} %{size_download}' \
                -H "Authorization: Bearer $token" \
                "http://127.0.0.1:$SERVER_PORT/v1/riders/$rider/trips/export?format=$format")
            read -r status seconds bytes <<<"$result"
            [[ $status == 200 ]] || th_die "the $format export of rider $rider answered $status"
            if [[ $format == csv ]]; then
                PV_CSV_MS+=("$(awk -v s="$seconds" 'BEGIN { printf "%.1f", s * 1000 }')")
                PV_CSV_BYTES=$bytes
            else
                PV_NDJSON_MS+=("$(awk -v s="$seconds" 'BEGIN { printf "%.1f", s * 1000 }')")
                PV_NDJSON_BYTES=$bytes
            fi
        done
        result=$(curl -sS -o /dev/null -m 60 -X DELETE -w '%{http_code} %{time_total}' \
            -H "Authorization: Bearer $privacy_token" "http://127.0.0.1:$SERVER_PORT/v1/riders/$rider")
        read -r status seconds <<<"$result"
        [[ $status == 204 ]] || th_die "the erasure of rider $rider answered $status"
        PV_ERASE_MS+=("$(awk -v s="$seconds" 'BEGIN { printf "%.1f", s * 1000 }')")
        [[ $(psql_run -At -c "SELECT count(*) FROM trips WHERE rider_id = $rider") == 0 ]] ||
            th_die "rider $rider still has trips after the erasure"
    done
    stop_server
    measure_retention
    write_privacy_part
    cat "$(report_part privacy)" >&2
}

# Seeds riders beyond every other section's, moves their trips twenty years back (every time column, so the
# checks hold), partitions the table online (timed) and times their removal by a retention of 120 months, which
# reaches only them: their years leave whole.
measure_retention() {
    local first=$((DEEP_RIDER + 100000)) before after started ended output
    "$BIN/trip-history" seed --riders "$RETENTION_RIDERS" --first-rider "$first" --trips-per-rider "$RETENTION_TRIPS" \
        --seed 7 >/dev/null 2>&1
    psql_run -c "UPDATE trips SET requested_at = requested_at - interval '20 years',
            started_at = started_at - interval '20 years', completed_at = completed_at - interval '20 years'
        WHERE rider_id BETWEEN $first AND $((first + RETENTION_RIDERS - 1))" -c "VACUUM ANALYZE trips" >/dev/null
    RT_TRIPS=$(psql_run -At -c "SELECT count(*) FROM trips WHERE requested_at < now() - interval '10 years'")
    # A retention needs the partitioned table: the whole seeded table partitioned online first, timed too.
    started=$(date +%s.%N)
    RT_PARTITION_OUTPUT=$(timeout 1800 "$BIN/trip-history" partition-trips 2>/dev/null) ||
        th_die "partition-trips failed: $RT_PARTITION_OUTPUT"
    ended=$(date +%s.%N)
    RT_PARTITION_SECONDS=$(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.2f", b - a }')
    before=$(psql_run -At -c "SELECT pg_current_wal_lsn()")
    started=$(date +%s.%N)
    output=$(timeout 600 "$BIN/trip-history" remove-expired --retention-months 120) ||
        th_die "remove-expired failed: $output"
    ended=$(date +%s.%N)
    after=$(psql_run -At -c "SELECT pg_current_wal_lsn()")
    [[ $(psql_run -At -c "SELECT count(*) FROM trips WHERE requested_at < now() - interval '10 years'") == 0 ]] ||
        th_die "trips past the retention remain after remove-expired"
    RT_SECONDS=$(awk -v a="$started" -v b="$ended" 'BEGIN { printf "%.2f", b - a }')
    RT_WAL_MB=$(psql_run -At -c "SELECT round(pg_wal_lsn_diff('$after', '$before') / 1048576.0, 1)")
    RT_OUTPUT=$output
}

# Median and maximum of the arguments, as "median / max".
median_max() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { printf "%s / %s", v[int((NR + 1) / 2)], v[NR] }'; }

write_privacy_part() {
    # shellcheck disable=SC2016 # backquotes are Markdown
    {
        printf '#### Data rights\n\n'
        printf -- '- %s riders of %s trips, each trip with one adjustment; uncached service; curl `time_total`, median / max ms\n\n' \
            "$PRIVACY_ROUNDS" "$PRIVACY_TRIPS"
        printf '| operation | median / max ms | body |\n|---|---:|---:|\n'
        printf '| `DELETE /v1/riders/{id}` (%s trips, %s adjustments) | %s | 204 |\n' "$PRIVACY_TRIPS" "$PRIVACY_TRIPS" \
            "$(median_max "${PV_ERASE_MS[@]}")"
        printf '| rider export, CSV | %s | %s KiB |\n' "$(median_max "${PV_CSV_MS[@]}")" "$((PV_CSV_BYTES / 1024))"
        printf '| rider export, NDJSON | %s | %s KiB |\n\n' "$(median_max "${PV_NDJSON_MS[@]}")" "$((PV_NDJSON_BYTES / 1024))"
        printf -- '- retention: `trip-history remove-expired` removed %s trips (%s riders, receipts as the seeder writes them; their years detached, reported to the feed in batches, dropped) in %s s, %s trips/s, writing %s MB of WAL (`%s`)\n\n' \
            "$RT_TRIPS" "$RETENTION_RIDERS" "$RT_SECONDS" "$(awk -v n="$RT_TRIPS" -v s="$RT_SECONDS" 'BEGIN { printf "%.0f", n / s }')" \
            "$RT_WAL_MB" "$RT_OUTPUT"
        printf -- '- before it, `trip-history partition-trips` partitioned the whole table online in %s s (`%s`)\n\n' \
            "$RT_PARTITION_SECONDS" "$RT_PARTITION_OUTPUT"
    } >"$(report_part privacy)"
}
