# shellcheck shell=bash
# shellcheck disable=SC2034 # AUTH is read by data.sh and the rounds.
# The rider scenarios (full run and BENCH_ONLY=rider): the service uncached, then cached, under wrk with each Lua script in
# bench/lua, the deep rider's first and deep pages, trip and adjustment POSTs, the deep rider's changes feed
# with one change and with none, and the health probe beside a saturating load.

# Runs every rider scenario, uncached then cached; leaves WORK/page.json and the deep rider's URLs for the
# baselines and the interleaved rounds.
run_rider_section() {
    AUTH=(-H "Authorization: Bearer $DEEP_TOKEN")
    start_server uncached
    walk_deep_rider
    run_health_probes_and_first_page
    scenario "deep rider page 1, uncached" "$SERVER_PID" -- "${AUTH[@]}" "$BASE$PAGE1_URL"
    scenario "deep rider page $DEEP_PAGE, uncached" "$SERVER_PID" -- "${AUTH[@]}" "$BASE$DEEP_URL"
    scenario "date-range page, uncached" "$SERVER_PID" -- -s bench/lua/date_range.lua "$BASE"
    scenario "trip detail, uncached" "$SERVER_PID" -- -s bench/lua/detail.lua "$BASE"
    scenario "mobile mix, uncached" "$SERVER_PID" -- -s bench/lua/mobile_mix.lua "$BASE"
    scenario "POST /v1/trips (unique keys)" "$SERVER_PID" -- -s bench/lua/record_trip.lua "$BASE"
    BENCH_WRITE=adjustment scenario "POST adjustment (fare correction, unique keys)" "$SERVER_PID" -- \
        -s bench/lua/record_trip.lua "$BASE"
    prepare_feed_urls
    scenario "changes feed, one change since the token, uncached" "$SERVER_PID" -- "${AUTH[@]}" "$BASE$FEED_ONE_URL"
    scenario "changes feed, nothing new, uncached" "$SERVER_PID" -- "${AUTH[@]}" "$BASE$FEED_NONE_URL"
    stop_server

    start_server cached
    local etag status
    etag=$(deep_rider_etag)
    scenario "first page, cache on, random riders" "$SERVER_PID" -- -s bench/lua/first_page.lua "$BASE"
    # first_page.lua picks riders 1..BENCH_RIDERS: narrowed to the hot set for this one scenario.
    BENCH_RIDERS=$HOT_RIDERS scenario "first page, cache on, $HOT_RIDERS hot riders" "$SERVER_PID" -- \
        -s bench/lua/first_page.lua "$BASE"
    scenario "mobile mix, cache on" "$SERVER_PID" -- -s bench/lua/mobile_mix.lua "$BASE"
    scenario "cached page 200 (one URL)" "$SERVER_PID" -- "${AUTH[@]}" "$BASE$PAGE1_URL"
    if [[ -n $etag ]]; then
        status=$(curl -s -o /dev/null -w '%{http_code}' "${AUTH[@]}" -H "If-None-Match: $etag" "$BASE$PAGE1_URL")
        [[ $status == 304 ]] || th_warn "If-None-Match with the ETag got $status, not 304"
        scenario "revalidation 304 (If-None-Match)" "$SERVER_PID" -- "${AUTH[@]}" -H "If-None-Match: $etag" "$BASE$PAGE1_URL"
    else
        th_warn "no ETag on the page: skipping the 304 scenario"
    fi
    scenario "changes feed, one change since the token, cache on" "$SERVER_PID" -- "${AUTH[@]}" "$BASE$FEED_ONE_URL"
    scenario "changes feed, nothing new, cache on" "$SERVER_PID" -- "${AUTH[@]}" "$BASE$FEED_NONE_URL"
    etag=$(deep_rider_etag "$FEED_NONE_URL")
    if [[ -n $etag ]]; then
        scenario "changes feed, nothing new, 304 (If-None-Match)" "$SERVER_PID" -- "${AUTH[@]}" \
            -H "If-None-Match: $etag" "$BASE$FEED_NONE_URL"
    else
        th_warn "no ETag on the changes feed: skipping its 304 scenario"
    fi
    stop_server
}

# The deep rider's changes feed for the feed scenarios: FEED_ONE_URL asks for what changed since a token taken
# just before one fare correction of the rider's newest trip, FEED_NONE_URL since a token taken after it. The
# adjustment scenario's trips are other riders' (BENCH_TRIP_IDS), so both answers stay the same.
prepare_feed_urls() {
    local feed_url="/v1/riders/$DEEP_RIDER/trips/changes" before after trip status
    before=$(curl -sf "${AUTH[@]}" "$BASE$feed_url" | jq -r '.page.next_since // empty')
    trip=$(jq -r '.data[0].id' "$WORK/page.json")
    [[ -n $before && -n $trip ]] || th_die "no changes-feed token or trip for the deep rider"
    status=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H "Authorization: Bearer $SERVICE_TOKEN" \
        -H 'Content-Type: application/json' -H "Idempotency-Key: bench-feed-$BENCH_RUN_ID" \
        -d '{"kind":"fare_correction","amount_minor":1,"reason":"Toll added after the ride"}' \
        "$BASE/v1/riders/$DEEP_RIDER/trips/$trip/adjustments")
    [[ $status == 201 ]] || th_die "the feed scenarios' adjustment got $status"
    FEED_ONE_URL="$feed_url?since=$before"
    after=$(curl -sf "${AUTH[@]}" "$BASE$FEED_ONE_URL" | jq -r '.page.next_since // empty')
    [[ -n $after ]] || th_die "no changes-feed token after the deep rider's adjustment"
    FEED_NONE_URL="$feed_url?since=$after"
    [[ $(curl -sf "${AUTH[@]}" "$BASE$FEED_ONE_URL" | jq '.data | length') == 1 ]] ||
        th_die "the deep rider's feed does not hold exactly one change since the first token"
}

# The health probe (GET /healthz, 100/s on one connection) idle and beside the saturating uncached first page,
# with nginx's own /healthz probed the same way as the control: what any process on this machine waits for a
# core while the service, PostgreSQL and wrk saturate them. With BENCH_PROFILE=1, perf samples the service
# during that first page and its top symbols go to the report.
run_health_probes_and_first_page() {
    start_nginx
    th_log "health probe, idle"
    record_probe "healthz, idle (1 conn, 100/s)" "$(probe healthz-idle "$BASE/healthz" 5s)"
    record_probe "control: nginx /healthz, idle" "$(probe nginx-idle "http://127.0.0.1:$NGINX_PORT/healthz" 5s)"

    local loaded_seconds probe_pid nginx_probe_pid perf_pid=""
    loaded_seconds="$(($(duration_seconds "$DURATION") + 2))s"
    probe healthz-loaded "$BASE/healthz" "$loaded_seconds" >"$WORK/probe-path" &
    probe_pid=$!
    probe nginx-loaded "http://127.0.0.1:$NGINX_PORT/healthz" "$loaded_seconds" >"$WORK/probe-nginx-path" &
    nginx_probe_pid=$!
    if [[ $PROFILE == 1 ]]; then
        # Software clock samples: VMs often lack hardware counters (`perf stat -e instructions true` says so).
        perf record -q -e cpu-clock -F 499 -g -p "$SERVER_PID" -o "$WORK/perf.data" -- \
            sleep "$(($(duration_seconds "$DURATION") + $(duration_seconds "$WARMUP")))" >/dev/null 2>&1 &
        perf_pid=$!
    fi
    scenario "first page, uncached, random riders" "$SERVER_PID" -- -s bench/lua/first_page.lua "$BASE"
    wait "$probe_pid" || true
    wait "$nginx_probe_pid" || true
    if [[ -n $perf_pid ]]; then
        wait "$perf_pid" || th_warn "perf record failed"
        write_profile_part
    fi
    record_probe "healthz, beside uncached saturation" "$(cat "$WORK/probe-path")"
    record_probe "control: nginx /healthz, beside the same saturation" "$(cat "$WORK/probe-nginx-path")"
    stop_nginx
}

# The report's profile part: the inclusive share of the server's samples by symbol, demangled, without the
# thread-start frames (top 40).
write_profile_part() {
    perf report -i "$WORK/perf.data" --children --sort symbol -g none 2>/dev/null | grep -v '^#' | grep -v '^$' |
        swift demangle --simplified | awk '{ $2 = ""; $3 = ""; print }' | cut -c1-150 |
        grep -vE 'start_thread|_dispatch_|swift_job_run|runJobInEstablished|ThreadOpsPosix|setupThreadAndEventLoop|thunk for' |
        head -n 40 >"$WORK/profile.txt" || true
    [[ -s $WORK/profile.txt ]] || return 0
    {
        printf '<details><summary>perf profile of the server, uncached first page (inclusive %% of samples, top 40)</summary>\n\n```\n'
        cat "$WORK/profile.txt"
        printf '```\n\n</details>\n\n'
    } >"$(report_part profile)"
}
