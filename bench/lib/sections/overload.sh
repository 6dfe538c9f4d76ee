# shellcheck shell=bash
# The overload and starvation section (BENCH_ONLY=overload), on an uncached service with the default pool
# bounds: POST /v1/trips first at capacity (closed loop), then paced light (the unloaded latency), then offered
# about four times the capacity by many paced connections (accepted 201s against shed 503s), the same on a
# service without the waiting bound (the control), then beside ten
# analyst stats queries and a /readyz flood (writes' success and latency while the analyst pool and the probes
# are saturated). Paced runs use one connection per wrk thread, so bench/lua/record_trip.lua can time every
# response by status. Its figures are in OV_* globals until the report part is written.

OV_LIGHT_CONNECTIONS=4 # connections of the light paced POST load (unloaded, and beside the starvation load)
OV_LIGHT_PACE_MS=20    # their pause after each response
OV_FACTOR=4            # offered load / capacity of the overload run

# Runs the section and writes the report's overload part.
run_overload_section() {
    th_log "overload and starvation section"
    local analyst_token seconds
    analyst_token=$("$BIN/trip-history" token --role analyst --ttl 86400)
    analyst_query
    seconds=$(duration_seconds "$DURATION")
    OV_LOAD_BEFORE=$(cut -d ' ' -f 1-3 /proc/loadavg)
    start_server uncached

    scenario "POST /v1/trips capacity (closed loop)" "$SERVER_PID" -- -s bench/lua/record_trip.lua "$BASE"
    OV_CAPACITY=$W_RPS
    [[ -n $OV_CAPACITY && $OV_CAPACITY -gt 0 ]] || th_die "no POST capacity measured"

    paced_posts unloaded "$OV_LIGHT_CONNECTIONS" "$OV_LIGHT_PACE_MS" "$seconds"

    # More connections than the writes' pool lets in (connections + waiters, default 8 + 64), each pausing so
    # that together they offer OV_FACTOR times the capacity. A connection's period is its pause plus its
    # response's latency, which depends on the load: a short calibration run measures the latency part, and the
    # pause is set from it.
    OV_CONNECTIONS=$((OV_FACTOR * (POOL_SIZE + 64)))
    local target_period pace
    target_period=$(awk -v n="$OV_CONNECTIONS" -v r="$OV_CAPACITY" -v f="$OV_FACTOR" 'BEGIN { printf "%.1f", n * 1000 / (f * r) }')
    pace=$(awk -v p="$target_period" 'BEGIN { p = int(p); print (p < 1 ? 1 : p) }')
    paced_posts calibration "$OV_CONNECTIONS" "$pace" 3
    OV_PACE_MS=$(awk -v n="$OV_CONNECTIONS" -v rate="$OV_CALIBRATION_RATE" -v pace="$pace" -v t="$target_period" \
        'BEGIN { latency = (rate > 0 ? n * 1000 / rate - pace : 0); p = int(t - latency); print (p < 1 ? 1 : p) }')
    paced_posts overload "$OV_CONNECTIONS" "$OV_PACE_MS" "$seconds"
    # The same offered load on a service whose writes' queue is unbounded in effect: only the 2 s acquire
    # timeout refuses, as before pools had a waiting bound.
    stop_server
    TRIP_HISTORY_DB_POOL_MAX_WAITERS=100000 start_server uncached
    paced_posts unbounded "$OV_CONNECTIONS" "$OV_PACE_MS" "$seconds"
    stop_server
    start_server uncached

    # Starvation: ten stats queries in a closed loop and a /readyz flood, with the light POST load beside them.
    local stats_url flood_seconds
    stats_url="$BASE/v1/trips/stats?$AN_QUERY&group_by=day&tz=$(uri_encode "$AN_TZ")"
    flood_seconds="$((seconds + 2))s"
    wrk -t2 -c10 -d"$flood_seconds" -H "Authorization: Bearer $analyst_token" "$stats_url" >"$WORK/ov-stats.txt" 2>&1 &
    local stats_pid=$!
    wrk -t2 -c64 -d"$flood_seconds" "$BASE/readyz" >"$WORK/ov-readyz.txt" 2>&1 &
    local readyz_pid=$!
    sleep 1
    paced_posts starved "$OV_LIGHT_CONNECTIONS" "$OV_LIGHT_PACE_MS" "$seconds"
    wait "$stats_pid" || th_warn "wrk on stats failed"
    wait "$readyz_pid" || th_warn "wrk on /readyz failed"
    read -r OV_STATS_REQUESTS OV_STATS_NON2XX <<<"$(wrk_totals "$WORK/ov-stats.txt")"
    read -r OV_READYZ_REQUESTS OV_READYZ_NON2XX <<<"$(wrk_totals "$WORK/ov-readyz.txt")"
    th_log "beside the POSTs: stats $OV_STATS_REQUESTS requests ($OV_STATS_NON2XX not 2xx), /readyz $OV_READYZ_REQUESTS ($OV_READYZ_NON2XX not 2xx)"

    stop_server
    OV_LOAD_AFTER=$(cut -d ' ' -f 1-3 /proc/loadavg)
    write_overload_part
    cat "$(report_part overload)" >&2
}

# paced_posts NAME CONNECTIONS PACE_MS SECONDS: POST /v1/trips from CONNECTIONS wrk threads of one connection
# each, pausing PACE_MS after every response; sets OV_<NAME>_* : offered req/s, the count, p50 and p99 (ms) of
# the 201s and of the 503s, and the count of any other status.
paced_posts() {
    local name=$1 connections=$2 pace=$3 seconds=$4 file=$WORK/ov-latency-$1.txt
    th_log "paced POSTs ($name): $connections connections, ${pace} ms after each response, ${seconds}s"
    BENCH_PACE_MS=$pace BENCH_LATENCY_FILE=$file wrk -t"$connections" -c"$connections" -d"${seconds}s" \
        -s bench/lua/record_trip.lua "$BASE" >"$WORK/ov-wrk-$name.txt" 2>&1 || th_warn "wrk failed for $name"
    rm -f "$WORK/lua-status"
    # One file per wrk thread.
    cat "$file".* >"$file" 2>/dev/null || th_warn "no latencies recorded for $name"
    rm -f "$file".*
    local upper=${name^^} total accepted shed
    total=$(wc -l <"$file")
    read -r accepted OV_ACCEPTED_P50 OV_ACCEPTED_P99 <<<"$(status_latencies "$file" 201)"
    read -r shed OV_SHED_P50 OV_SHED_P99 <<<"$(status_latencies "$file" 503)"
    printf -v "OV_${upper}_RATE" '%s' "$(rate "$total" "$seconds")"
    printf -v "OV_${upper}_ACCEPTED" '%s' "$accepted"
    printf -v "OV_${upper}_ACCEPTED_P50" '%s' "$OV_ACCEPTED_P50"
    printf -v "OV_${upper}_ACCEPTED_P99" '%s' "$OV_ACCEPTED_P99"
    printf -v "OV_${upper}_SHED" '%s' "$shed"
    printf -v "OV_${upper}_SHED_P50" '%s' "$OV_SHED_P50"
    printf -v "OV_${upper}_SHED_P99" '%s' "$OV_SHED_P99"
    printf -v "OV_${upper}_OTHER" '%s' "$((total - accepted - shed))"
    th_log "  $total responses ($(rate "$total" "$seconds")/s): 201 x $accepted (p50 $OV_ACCEPTED_P50, p99 $OV_ACCEPTED_P99 ms), 503 x $shed (p50 $OV_SHED_P50, p99 $OV_SHED_P99 ms), other $((total - accepted - shed))"
}

# The count, p50 and p99 (ms) of the responses with STATUS in a latency file ("status ms" lines); "-" for
# percentiles of none.
status_latencies() { # FILE STATUS
    awk -v s="$2" '$1 == s { print $2 }' "$1" | sort -g |
        awk '{ a[NR] = $1 } END { if (NR == 0) print 0, "-", "-"; else printf "%d %.2f %.2f\n", NR, a[int((NR - 1) * 0.50) + 1], a[int((NR - 1) * 0.99) + 1] }'
}

# The requests and the non-2xx/3xx responses plus socket errors of a wrk output file.
wrk_totals() {
    parse_wrk "$1"
    printf '%s %s\n' "${W_REQUESTS:-0}" "${W_ERRORS:-0}"
}

# The report's overload part: method, then one table of the figures.
write_overload_part() {
    # shellcheck disable=SC2016 # backquotes are Markdown
    {
        printf '#### Overload and starvation (POST /v1/trips)\n\n'
        printf -- '- service: uncached, writes pool %s connections with at most 64 waiting, analyst pool 2 with at most 8 waiting (the defaults); one run, %ss per load\n' \
            "$POOL_SIZE" "$(duration_seconds "$DURATION")"
        printf -- '- capacity: wrk closed loop, %s connections (row "POST /v1/trips capacity" above): %s req/s\n' "$CONNECTIONS" "$OV_CAPACITY"
        printf -- '- paced loads: one connection per wrk thread pausing after each response, every response timed by status in bench/lua/record_trip.lua; unloaded = %s connections, %s ms pause\n' \
            "$OV_LIGHT_CONNECTIONS" "$OV_LIGHT_PACE_MS"
        printf -- '- overload: %s connections, %s ms pause (set from a 3 s calibration run to offer %s x capacity): %s responses/s offered = %s x capacity\n' \
            "$OV_CONNECTIONS" "$OV_PACE_MS" "$OV_FACTOR" "$OV_OVERLOAD_RATE" "$(ratio "$OV_OVERLOAD_RATE" "$OV_CAPACITY")"
        printf -- '- starvation: the unloaded POST load beside 10 closed-loop connections on `GET /v1/trips/stats` (%s, a year by day) and 64 on `GET /readyz`; stats: %s requests, %s not 2xx (503 when the analyst pool sheds); /readyz: %s requests, %s not 2xx\n' \
            "$AN_CITY" "$OV_STATS_REQUESTS" "$OV_STATS_NON2XX" "$OV_READYZ_REQUESTS" "$OV_READYZ_NON2XX"
        printf -- '- machine load: loadavg %s before, %s after, on %s CPUs shared with other work\n\n' "$OV_LOAD_BEFORE" "$OV_LOAD_AFTER" "$(nproc)"
        printf '| POST load | responses/s | 201 | 201 p50 ms | 201 p99 ms | 503 | 503 p50 ms | 503 p99 ms | other statuses |\n'
        printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
        local load upper label
        for load in unloaded overload unbounded starved; do
            upper=${load^^}
            case $load in
                unloaded) label="unloaded ($OV_LIGHT_CONNECTIONS conn)" ;;
                overload) label="overload ($(ratio "$OV_OVERLOAD_RATE" "$OV_CAPACITY") x capacity)" ;;
                unbounded) label="same offered load, no waiting bound (100000)" ;;
                starved) label="beside 10 stats + /readyz flood" ;;
            esac
            local rate_var=OV_${upper}_RATE accepted=OV_${upper}_ACCEPTED ap50=OV_${upper}_ACCEPTED_P50 ap99=OV_${upper}_ACCEPTED_P99
            local shed=OV_${upper}_SHED sp50=OV_${upper}_SHED_P50 sp99=OV_${upper}_SHED_P99 other=OV_${upper}_OTHER
            printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$label" "${!rate_var}" "${!accepted}" "${!ap50}" \
                "${!ap99}" "${!shed}" "${!sp50}" "${!sp99}" "${!other}"
        done
        printf '\n| ratio | value |\n|---|---:|\n'
        printf '| overload: accepted p99 / unloaded p99 | %s |\n' "$(ratio "$OV_OVERLOAD_ACCEPTED_P99" "$OV_UNLOADED_ACCEPTED_P99")"
        printf '| overload: shed 503 p99 / accepted 201 p99 | %s |\n' "$(ratio "$OV_OVERLOAD_SHED_P99" "$OV_OVERLOAD_ACCEPTED_P99")"
        printf '| no waiting bound: accepted p99 / unloaded p99 | %s |\n' "$(ratio "$OV_UNBOUNDED_ACCEPTED_P99" "$OV_UNLOADED_ACCEPTED_P99")"
        printf '| overload: accepted p99 with the bound / without it | %s |\n' "$(ratio "$OV_OVERLOAD_ACCEPTED_P99" "$OV_UNBOUNDED_ACCEPTED_P99")"
        printf '| starvation: POST success rate (201 / all) | %s |\n' \
            "$(awk -v a="$OV_STARVED_ACCEPTED" -v s="$OV_STARVED_SHED" -v o="$OV_STARVED_OTHER" 'BEGIN { t = a + s + o; if (t == 0) print "n/a"; else printf "%.4f", a / t }')"
        printf '| starvation: POST p99 / unloaded p99 | %s |\n\n' "$(ratio "$OV_STARVED_ACCEPTED_P99" "$OV_UNLOADED_ACCEPTED_P99")"
    } >"$(report_part overload)"
}
