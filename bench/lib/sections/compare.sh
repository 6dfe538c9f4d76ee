# shellcheck shell=bash
# The A/B of two builds (BENCH_ONLY=compare): BENCH_BASELINE_BIN and this checkout's trip-history are served in
# turn (the first build of a round alternating) for BENCH_ROUNDS rounds of BENCH_ROUND_DURATION on each target, on
# the same data: uncached for the first page, the detail and an analyst's first page of one city's month, with
# the cache on for one warm page (200) and its revalidation (304). Each round measures
# both builds minutes apart at most, so the drift of a shared VM between rounds cancels out of the per-round
# ratios.

# What each build is measured on, in order: the uncached rider ones run a Lua script (bench/lua/NAME.lua), the
# analyst one asks for the busiest city's first page of 100 in the middle month of the seeded years
# (MIDDLE_MONTH_FROM, settings.sh) on AN_CONNECTIONS connections (sections/analyst.sh), the cached ones ask for
# the deep rider's first page as that rider.
COMPARE_UNCACHED=(first_page detail analyst_month)
COMPARE_CACHED=(cached_200 revalidated_304)
COMPARE_TARGETS=("${COMPARE_UNCACHED[@]}" "${COMPARE_CACHED[@]}")

# Measures one target of one build on the running service: sets W_* and the per-request CPU arrays' next values.
compare_target() { # ROUND SIDE TARGET ETAG
    local round=$1 side=$2 target=$3 etag=$4 key=$2.$3 args=()
    case $target in
        cached_200) args=("${AUTH[@]}" "$BASE$PAGE1_URL") ;;
        revalidated_304) args=("${AUTH[@]}" -H "If-None-Match: $etag" "$BASE$PAGE1_URL") ;;
        analyst_month) args=(-c "$AN_CONNECTIONS" "${ANALYST_AUTH[@]}" "$BASE$ANALYST_MONTH_URL") ;;
        *) args=(-s "bench/lua/$target.lua" "$BASE") ;;
    esac
    # The Lua scripts send BENCH_FORWARDED_FOR themselves (bench/lua/common.lua); the plain requests get it here.
    [[ -n ${BENCH_FORWARDED_FOR:-} && $target != first_page && $target != detail ]] &&
        args=(-H "X-Forwarded-For: $BENCH_FORWARDED_FOR" "${args[@]}")
    round_wrk "round $round ($side, $target)" "$SERVER_PID" -- "${args[@]}"
    rps[$key]="${rps[$key]:-} ${W_RPS:-0}"
    server[$key]="${server[$key]:-} $(cpu_ms_per_request "$ROUND_TARGET_TICKS" "$W_REQUESTS" "")"
    pg[$key]="${pg[$key]:-} $(cpu_ms_per_request "$ROUND_PG_TICKS" "$W_REQUESTS" "")"
    th_log "  round $round $side $target: ${W_RPS:-0} req/s, server ${server[$key]##* } ms, PostgreSQL ${pg[$key]##* } ms per request"
}

# With BENCH_BASELINE_OWN_DATABASE=1: database `baseline` of the same cluster, migrated by the baseline binary
# and seeded by it as seed_data seeds (in a subshell, so the report's figures stay the candidate's), its ids
# starting where the candidate's do, so the wrk scripts' trip ids name the same trips in both.
prepare_baseline_database() {
    BASELINE_DATABASE_URL=${DATABASE_URL%/*}/baseline
    th_log "compare: the baseline's own database, migrated and seeded by $BASELINE_BIN"
    psql_run -c "DROP DATABASE IF EXISTS baseline" -c "CREATE DATABASE baseline" >/dev/null
    local first_id bin_dir=$WORK/baseline-bin
    first_id=$(psql_run -At -c "SELECT min(id) FROM trips")
    mkdir -p "$bin_dir"
    ln -sf "$BASELINE_BIN" "$bin_dir/trip-history"
    (
        DATABASE_URL=$BASELINE_DATABASE_URL BIN=$bin_dir
        "$BIN/trip-history" migrate >/dev/null
        psql_run -c "SELECT setval(pg_get_serial_sequence('trips', 'id'), $first_id, false)" >/dev/null
        seed_data
    ) || th_die "the baseline's database could not be seeded"
    local count baseline_count
    count=$(psql_run -At -c "SELECT count(*), sum(id) FROM trips")
    baseline_count=$("$PSQL_BIN" -X -At "$BASELINE_DATABASE_URL" -c "SELECT count(*), sum(id) FROM trips")
    [[ $count == "$baseline_count" ]] || th_die "the baseline's trips ($baseline_count) differ from the candidate's ($count)"
}

# Sets SERVER_ENV to SIDE's BENCH_*_ENV settings (and the baseline's own database, if it has one); traces
# exported without an endpoint go to nginx's sink.
compare_side_env() { # SIDE
    local settings=$CANDIDATE_ENV
    [[ $1 == baseline ]] && settings=$BASELINE_ENV
    read -r -a SERVER_ENV <<<"$settings"
    SERVER_OWN_MIGRATIONS=0
    if [[ $1 == baseline && $BASELINE_OWN_DATABASE == 1 ]]; then
        SERVER_ENV+=("DATABASE_URL=$BASELINE_DATABASE_URL" "TRIP_HISTORY_DATABASE_URL=$BASELINE_DATABASE_URL")
        SERVER_OWN_MIGRATIONS=1
    fi
    if [[ " $settings " == *" OTEL_TRACES_EXPORTER=otlp "* && " $settings " != *" OTEL_EXPORTER_OTLP_"* ]]; then
        [[ -n ${NGINX_PID:-} ]] || start_nginx
        SERVER_ENV+=("OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:$NGINX_PORT")
    fi
}

# Runs the rounds and writes the report's compare part: per build and target the medians of req/s and of the
# service's and PostgreSQL's CPU per request, then the candidate / baseline paired ratios.
run_compare_section() {
    local -A rps=() server=() pg=()
    local round_count=$((ROUNDS > 0 ? ROUNDS : 1)) round side target binary etag
    AUTH=(-H "Authorization: Bearer $DEEP_TOKEN")
    PAGE1_URL="/v1/riders/$DEEP_RIDER/trips?limit=$PAGE_LIMIT"
    ANALYST_AUTH=(-H "Authorization: Bearer $("$BIN/trip-history" token --role analyst --ttl 86400)")
    local city
    city=$(psql_run -At -c "SELECT city FROM trips
        WHERE requested_at >= '$MIDDLE_MONTH_FROM' AND requested_at < '$MIDDLE_MONTH_TO'
        GROUP BY city ORDER BY count(*) DESC, city LIMIT 1")
    [[ -n $city ]] || th_die "no trips from $MIDDLE_MONTH_FROM to $MIDDLE_MONTH_TO for the analyst target"
    ANALYST_MONTH_URL="/v1/trips?city=$(uri_encode "$city")&from=$MIDDLE_MONTH_FROM&to=$MIDDLE_MONTH_TO&limit=100"
    [[ $BASELINE_OWN_DATABASE != 1 ]] || prepare_baseline_database
    for round in $(seq 1 "$round_count"); do
        # Alternate which build goes first (ABBA): the second of a pair measures a few percent faster on the
        # same code (an A/A run showed it on the cached targets), and alternating cancels that out of the
        # medians of the per-round ratios.
        local order=(baseline candidate)
        ((round % 2 == 1)) || order=(candidate baseline)
        for side in "${order[@]}"; do
            binary=${CANDIDATE_BIN:-$BIN/trip-history}
            [[ $side == baseline ]] && binary=$BASELINE_BIN
            compare_side_env "$side"
            start_server uncached "$SERVER_PORT" "$binary"
            for target in "${COMPARE_UNCACHED[@]}"; do compare_target "$round" "$side" "$target" ""; done
            stop_server
            start_server cached "$SERVER_PORT" "$binary"
            etag=$(deep_rider_etag)
            [[ -n $etag ]] || th_die "the $side build sent no ETag for $PAGE1_URL"
            for target in "${COMPARE_CACHED[@]}"; do compare_target "$round" "$side" "$target" "$etag"; done
            stop_server
        done
    done
    SERVER_ENV=() SERVER_OWN_MIGRATIONS=0
    if [[ -n ${NGINX_PID:-} ]]; then stop_nginx; fi
    # shellcheck disable=SC2016 # backquotes are Markdown
    {
        printf '#### A/B of two builds: %s rounds of %s per build and target, served in turn\n\n' \
            "$round_count" "$ROUND_DURATION"
        local candidate="this checkout, $(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
        [[ -z $CANDIDATE_BIN ]] || candidate="\`$CANDIDATE_BIN\` ($(sha256sum "$CANDIDATE_BIN" | cut -c1-12))"
        local own=""
        [[ $BASELINE_OWN_DATABASE != 1 ]] || own=", on a database of its own migrated and seeded by itself"
        printf -- '- baseline: `%s` (%s)%s%s\n- candidate: %s%s\n\n' "$BASELINE_BIN" \
            "$(sha256sum "$BASELINE_BIN" | cut -c1-12)" "${BASELINE_ENV:+, with \`$BASELINE_ENV\`}" "$own" \
            "$candidate" "${CANDIDATE_ENV:+, with \`$CANDIDATE_ENV\`}"
        printf '| target | build | median req/s | median service CPU ms/req | median PostgreSQL CPU ms/req | req/s per round |\n'
        printf '|---|---|---:|---:|---:|---|\n'
        for target in "${COMPARE_TARGETS[@]}"; do
            for side in baseline candidate; do
                key=$side.$target
                # shellcheck disable=SC2086 # space-separated numbers
                printf '| %s | %s | %s | %s | %s | %s |\n' "$target" "$side" "$(median ${rps[$key]})" \
                    "$(median ${server[$key]})" "$(median ${pg[$key]})" "${rps[$key]# }"
            done
        done
        printf '\n| target | candidate / baseline req/s (median of the per-round ratios) | per round |\n|---|---:|---|\n'
        for target in "${COMPARE_TARGETS[@]}"; do
            paired_ratios "${rps[candidate.$target]}" "${rps[baseline.$target]}"
            printf '| %s | %.2f | %s |\n' "$target" "$PAIRED_MEDIAN" "$PAIRED_SHOWN"
        done
        printf '\n'
    } >"$(report_part compare)"
    cat "$(report_part compare)" >&2
}
