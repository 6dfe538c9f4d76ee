# shellcheck shell=bash
# The analyst API section (full run and BENCH_ONLY=analyst): for the busiest city over the last 365 seeded days,
# the exports (NDJSON, CSV) against psql COPY of the same SELECT, the stats against psql running the same SQL,
# and a deep cursor page against the first one. Bounded: curl and psql calls time out, and the two wrk
# scenarios take 2 x (BENCH_WARMUP + BENCH_DURATION). Its figures are in AN_* globals until the report part is
# written.

# Runs the section against an uncached service and writes the report's analyst part.
run_analyst_section() {
    th_log "analyst API section"
    local section_started=$EPOCHREALTIME load_before busy_before server_before pg_before clients_before
    load_before=$(cut -d ' ' -f 1-3 /proc/loadavg)
    local analyst_token
    analyst_token=$("$BIN/trip-history" token --role analyst --ttl 86400)
    AN_AUTH=(-H "Authorization: Bearer $analyst_token")
    analyst_query

    start_server uncached
    busy_before=$(machine_busy_ticks)
    server_before=$(tree_ticks "$SERVER_PID")
    pg_before=$(pg_ticks)
    clients_before=$(children_ticks)
    analyst_exports
    analyst_stats
    analyst_deep_pages

    local busy server pg clients
    busy=$(($(machine_busy_ticks) - busy_before))
    server=$(($(tree_ticks "$SERVER_PID") - server_before))
    pg=$(($(pg_ticks) - pg_before))
    clients=$(($(children_ticks) - clients_before))
    AN_SECTION_S=$(awk -v a="$section_started" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
    AN_OTHER=$(awk -v t=$((busy - server - pg - clients)) -v hz="$CLK_TCK" 'BEGIN { printf "%.1f", (t < 0 ? 0 : t) / hz }')
    AN_LOAD_BEFORE=$load_before
    AN_LOAD_AFTER=$(cut -d ' ' -f 1-3 /proc/loadavg)
    stop_server
    write_analyst_part
    cat "$(report_part analyst)" >&2
}

# The query every measurement uses: the last 365 UTC days of the seeded data (AN_FROM, AN_TO), the city with
# the most trips in them (AN_CITY, its zone AN_TZ, AN_COUNT trips), its URL query (AN_QUERY), and the SQL the
# service runs for it (AN_EXPORT_SQL, AN_STATS_SQL).
analyst_query() {
    read -r AN_FROM AN_TO <<<"$(psql_run -At -F ' ' -c "
        SELECT to_char(t - interval '365 days', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), to_char(t, 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')
        FROM (SELECT date_trunc('day', max(requested_at) AT TIME ZONE 'UTC') + interval '1 day' AS t FROM trips) w")"
    IFS=$'\t' read -r AN_CITY AN_COUNT AN_TZ <<<"$(psql_run -At -F $'\t' -c "
        SELECT city, count(*), min(time_zone) FROM trips
        WHERE requested_at >= '$AN_FROM'::timestamptz AND requested_at < '$AN_TO'::timestamptz
          AND status = ANY ('{completed,canceled}'::text[])
        GROUP BY city ORDER BY 2 DESC, 1 LIMIT 1")"
    [[ -n $AN_CITY && $AN_COUNT -gt 0 ]] || th_die "no trips to export between $AN_FROM and $AN_TO"
    th_log "analyst window $AN_FROM .. $AN_TO, city $AN_CITY ($AN_TZ): $AN_COUNT trips"
    AN_QUERY="city=$(uri_encode "$AN_CITY")&from=$AN_FROM&to=$AN_TO"
    local columns="id, rider_id, status, product, city, time_zone, requested_at, started_at, completed_at,
        pickup_lat, pickup_lon, pickup_address, dropoff_lat, dropoff_lon, dropoff_address,
        distance_m, duration_s, fare_amount_minor, fare_currency,
        version, recorded_at, updated_at, tips_minor, refunds_minor, corrections_minor"
    # AnalystStatements.list (older, city filter) with the first read's parameters (the key: the window's end and
    # the smallest id, as KeysetStart binds it), without the batch LIMIT.
    AN_EXPORT_SQL="SELECT $columns FROM trips
        WHERE requested_at >= '$AN_FROM'::timestamptz AND requested_at < '$AN_TO'::timestamptz
          AND (requested_at, id) < ('$AN_TO'::timestamptz, '-9223372036854775808'::bigint)
          AND status = ANY ('{completed,canceled}'::text[]) AND city = $(sql_quote "$AN_CITY")
        ORDER BY requested_at DESC, id DESC"
    # AnalystStatements.stats (city filter) with day buckets in the city's zone.
    AN_STATS_SQL="SELECT local_start AT TIME ZONE $(sql_quote "$AN_TZ") AS bucket_start, fare_currency, trips, completed,
            canceled, fare_total, distance_total, completed_duration
        FROM (
            SELECT date_trunc('day', requested_at AT TIME ZONE $(sql_quote "$AN_TZ")) AS local_start, fare_currency,
                count(*) AS trips,
                count(*) FILTER (WHERE status = 'completed') AS completed,
                count(*) FILTER (WHERE status = 'canceled') AS canceled,
                sum(fare_amount_minor) AS fare_total,
                sum(distance_m) AS distance_total,
                coalesce(sum(duration_s) FILTER (WHERE status = 'completed'), 0) AS completed_duration
            FROM trips
            WHERE requested_at >= '$AN_FROM'::timestamptz AND requested_at < '$AN_TO'::timestamptz
              AND status = ANY ('{completed,canceled}'::text[]) AND city = $(sql_quote "$AN_CITY")
            GROUP BY 1, 2
        ) buckets
        ORDER BY 1, 2"
}

# Exports: one unmeasured pass of each format and of COPY (row counts checked), then BENCH_ANALYST_ROUNDS
# interleaved rounds; the server's memory around them (VmHWM reset before).
analyst_exports() {
    local lines
    lines=$(curl -sf --max-time 120 "${AN_AUTH[@]}" -H 'Accept: application/x-ndjson' "$BASE/v1/trips?$AN_QUERY" | wc -l)
    [[ $lines == "$AN_COUNT" ]] || th_warn "the NDJSON export has $lines lines, SQL counts $AN_COUNT trips"
    lines=$(curl -sf --max-time 120 "${AN_AUTH[@]}" -H 'Accept: text/csv' "$BASE/v1/trips?$AN_QUERY" | wc -l)
    [[ $lines == $((AN_COUNT + 1)) ]] || th_warn "the CSV export has $lines lines, SQL counts $AN_COUNT trips (+1 header)"
    lines=$(psql_run -c "COPY ($AN_EXPORT_SQL) TO STDOUT" | wc -l)
    [[ $lines == "$AN_COUNT" ]] || th_warn "COPY wrote $lines lines, SQL counts $AN_COUNT trips"
    AN_RSS_BEFORE=$(proc_kib "$SERVER_PID" VmRSS)
    AN_HWM_SINCE_START=$(proc_kib "$SERVER_PID" VmHWM)
    echo 5 >"/proc/$SERVER_PID/clear_refs" 2>/dev/null || th_warn "cannot reset the server's VmHWM"
    AN_NDJSON=() AN_CSV=() AN_COPY=() AN_NDJSON_BYTES=0 AN_CSV_BYTES=0
    local out started format seconds
    for _ in $(seq 1 "$ANALYST_ROUNDS"); do
        for format in application/x-ndjson text/csv; do
            out=$(curl -s -o /dev/null --max-time 120 -w '%{time_total} %{size_download} %{http_code}' \
                "${AN_AUTH[@]}" -H "Accept: $format" "$BASE/v1/trips?$AN_QUERY")
            [[ ${out##* } == 200 ]] || th_warn "$format export answered ${out##* }"
            seconds=$(awk '{ printf "%.3f", $1 }' <<<"$out")
            if [[ $format == text/csv ]]; then
                AN_CSV+=("$seconds")
                AN_CSV_BYTES=$(cut -d ' ' -f 2 <<<"$out")
            else
                AN_NDJSON+=("$seconds")
                AN_NDJSON_BYTES=$(cut -d ' ' -f 2 <<<"$out")
            fi
        done
        started=$EPOCHREALTIME
        psql_run -c "COPY ($AN_EXPORT_SQL) TO STDOUT" >/dev/null
        AN_COPY+=("$(seconds_since "$started")")
    done
    AN_RSS_AFTER=$(proc_kib "$SERVER_PID" VmRSS)
    AN_HWM_EXPORTS=$(proc_kib "$SERVER_PID" VmHWM)
    AN_NDJSON_S=$(median "${AN_NDJSON[@]}")
    AN_CSV_S=$(median "${AN_CSV[@]}")
    AN_COPY_S=$(median "${AN_COPY[@]}")
    AN_NDJSON_RATE=$(rate "$AN_COUNT" "$AN_NDJSON_S")
    AN_CSV_RATE=$(rate "$AN_COUNT" "$AN_CSV_S")
    AN_COPY_RATE=$(rate "$AN_COUNT" "$AN_COPY_S")
    th_log "exports: NDJSON ${AN_NDJSON_S}s ($AN_NDJSON_RATE rows/s), CSV ${AN_CSV_S}s ($AN_CSV_RATE rows/s), COPY ${AN_COPY_S}s ($AN_COPY_RATE rows/s)"
}

# Stats: a warm-up of each, then 5 interleaved rounds of the service and of psql running the same SQL, with
# psql's own floor (SELECT 1) for context.
analyst_stats() {
    local stats_url code started
    stats_url="$BASE/v1/trips/stats?$AN_QUERY&group_by=day&tz=$(uri_encode "$AN_TZ")"
    code=$(curl -s -o "$WORK/stats.json" --max-time 60 -w '%{http_code}' "${AN_AUTH[@]}" "$stats_url")
    [[ $code == 200 ]] || th_warn "stats answered $code: $(head -c 300 "$WORK/stats.json")"
    local stats_trips
    AN_BUCKETS=$(jq '.data | length' "$WORK/stats.json" 2>/dev/null || echo "?")
    stats_trips=$(jq '[.data[].trips] | add' "$WORK/stats.json" 2>/dev/null || echo "?")
    [[ $stats_trips == "$AN_COUNT" ]] || th_warn "stats count $stats_trips trips, SQL $AN_COUNT"
    psql_run -At -c "$AN_STATS_SQL" >/dev/null
    AN_SERVER_MS=() AN_PSQL_MS=()
    local floor_ms=()
    for _ in 1 2 3 4 5; do
        AN_SERVER_MS+=("$(curl -s -o /dev/null --max-time 60 -w '%{time_total}' "${AN_AUTH[@]}" "$stats_url" |
            awk '{ printf "%.2f", $1 * 1000 }')")
        started=$EPOCHREALTIME
        psql_run -At -c "$AN_STATS_SQL" >/dev/null
        AN_PSQL_MS+=("$(ms_since "$started")")
        started=$EPOCHREALTIME
        psql_run -At -c "SELECT 1" >/dev/null
        floor_ms+=("$(ms_since "$started")")
    done
    AN_STATS_SERVER=$(median "${AN_SERVER_MS[@]}")
    AN_STATS_PSQL=$(median "${AN_PSQL_MS[@]}")
    AN_STATS_FLOOR=$(median "${floor_ms[@]}")
    th_log "stats: server ${AN_STATS_SERVER} ms (${AN_SERVER_MS[*]}), psql ${AN_STATS_PSQL} ms (${AN_PSQL_MS[*]}), psql SELECT 1 ${AN_STATS_FLOOR} ms"
}

# Deep cursor pages: walks next_cursor to page BENCH_ANALYST_DEEP_PAGE (limit 100), then wrk on page 1 and on
# that page (two rows of the main table), with AN_CONNECTIONS connections.
# As many connections as the analyst pool's default takes (2 lent, 8 waiting): more are shed with 503.
AN_CONNECTIONS=8
analyst_deep_pages() {
    local limit=100 first_url walk_started
    ((AN_COUNT >= ANALYST_DEEP_PAGE * limit)) || th_warn "only $AN_COUNT trips: page $ANALYST_DEEP_PAGE of $limit is the last one"
    first_url="/v1/trips?$AN_QUERY&limit=$limit"
    walk_started=$EPOCHREALTIME
    walk_pages analyst "$first_url" "$ANALYST_DEEP_PAGE" 30 "${AN_AUTH[@]}"
    AN_WALK_MS=$(ms_since "$walk_started")
    th_log "walked $ANALYST_DEEP_PAGE analyst pages in ${AN_WALK_MS} ms"
    local first_name="analyst list page 1 ($AN_CITY, limit $limit)"
    local deep_name="analyst list page $ANALYST_DEEP_PAGE ($AN_CITY, limit $limit)"
    scenario "$first_name" "$SERVER_PID" -- -c "$AN_CONNECTIONS" "${AN_AUTH[@]}" "$BASE$first_url"
    scenario "$deep_name" "$SERVER_PID" -- -c "$AN_CONNECTIONS" "${AN_AUTH[@]}" "$BASE$WALK_URL"
    AN_P50_FIRST=${P50[$first_name]}
    AN_P50_DEEP=${P50[$deep_name]}
}

# The report's analyst part: how each figure was taken, the machine's load during the section, the
# measurements against their baselines and targets, and every run.
write_analyst_part() {
    # shellcheck disable=SC2016 # backquotes are Markdown
    {
        printf '#### Analyst API\n\n'
        printf -- '- query: city %s, `from=%s&to=%s` (365 days), statuses completed+canceled: %s trips; stats in %s, %s day buckets\n' \
            "$AN_CITY" "$AN_FROM" "$AN_TO" "$AN_COUNT" "$AN_TZ" "$AN_BUCKETS"
        printf -- '- exports and COPY: median of %s interleaved rounds after one unmeasured pass each (row counts checked); curl `time_total` to /dev/null; COPY = `psql -c "COPY (<the export SELECT>) TO STDOUT" >/dev/null` wall time, psql start and connection included\n' "$ANALYST_ROUNDS"
        printf -- '- stats: median of 5 interleaved rounds after a warm-up; server = curl `time_total`, psql = wall time of `psql -c "<the stats SELECT>"` (start, connection, query, output); psql `SELECT 1` alone: %s ms\n' "$AN_STATS_FLOOR"
        printf -- '- server memory around the exports: VmRSS %s MiB before (VmHWM since start %s MiB); VmHWM reset, then peak during the %s exports %s MiB, VmRSS after %s MiB; one NDJSON export is %s MiB, one CSV export %s MiB\n' \
            "$(mib "$AN_RSS_BEFORE")" "$(mib "$AN_HWM_SINCE_START")" "$((ANALYST_ROUNDS * 2))" "$(mib "$AN_HWM_EXPORTS")" \
            "$(mib "$AN_RSS_AFTER")" "$(mib $((AN_NDJSON_BYTES / 1024)))" "$(mib $((AN_CSV_BYTES / 1024)))"
        printf -- '- machine load: loadavg %s before, %s after this %ss section on %s CPUs; CPU used by processes other than the service, PostgreSQL and the benchmark clients during it: %s CPU-s\n\n' \
            "$AN_LOAD_BEFORE" "$AN_LOAD_AFTER" "$AN_SECTION_S" "$(nproc)" "$AN_OTHER"
        printf '| measurement | value | baseline | ratio | target |\n|---|---:|---:|---:|---|\n'
        printf '| NDJSON export rows/s vs COPY rows/s | %s (%ss) | %s (%ss) | %s | >= 0.5: %s |\n' \
            "$AN_NDJSON_RATE" "$AN_NDJSON_S" "$AN_COPY_RATE" "$AN_COPY_S" "$(ratio "$AN_NDJSON_RATE" "$AN_COPY_RATE")" \
            "$(verdict "$AN_NDJSON_RATE" "$AN_COPY_RATE" '>=' 0.5)"
        printf '| CSV export rows/s vs COPY rows/s | %s (%ss) | %s (%ss) | %s | >= 0.5: %s |\n' \
            "$AN_CSV_RATE" "$AN_CSV_S" "$AN_COPY_RATE" "$AN_COPY_S" "$(ratio "$AN_CSV_RATE" "$AN_COPY_RATE")" \
            "$(verdict "$AN_CSV_RATE" "$AN_COPY_RATE" '>=' 0.5)"
        printf '| stats ms, server vs psql (median of 5) | %s | %s | %s | <= 1.5: %s |\n' \
            "$AN_STATS_SERVER" "$AN_STATS_PSQL" "$(ratio "$AN_STATS_SERVER" "$AN_STATS_PSQL")" \
            "$(verdict "$AN_STATS_SERVER" "$AN_STATS_PSQL" '<=' 1.5)"
        printf '| list p50 ms, page %s vs page 1 (wrk, %s conn) | %s | %s | %s | <= 1.2: %s |\n' \
            "$ANALYST_DEEP_PAGE" "$AN_CONNECTIONS" "$AN_P50_DEEP" "$AN_P50_FIRST" "$(ratio "$AN_P50_DEEP" "$AN_P50_FIRST")" \
            "$(verdict "$AN_P50_DEEP" "$AN_P50_FIRST" '<=' 1.2)"
        printf '\nRuns (s or ms): NDJSON %s; CSV %s; COPY %s; stats server %s; stats psql %s; walk to page %s: %s ms.\n\n' \
            "${AN_NDJSON[*]}" "${AN_CSV[*]}" "${AN_COPY[*]}" "${AN_SERVER_MS[*]}" "${AN_PSQL_MS[*]}" "$ANALYST_DEEP_PAGE" "$AN_WALK_MS"
    } >"$(report_part analyst)"
}

# A value percent-encoded for a URL query.
uri_encode() { jq -rn --arg v "$1" '$v | @uri'; }

# A value as an SQL string literal.
sql_quote() { printf "'%s'" "${1//\'/\'\'}"; }
