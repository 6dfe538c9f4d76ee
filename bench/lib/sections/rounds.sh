# shellcheck shell=bash
# The interleaved rounds (full run only, BENCH_ROUNDS > 0): the headline comparisons measured again in
# alternation. On a shared VM throughput drifts by 10-30% within minutes, so single runs minutes apart can tip a
# ratio either way. Every round runs each target back to back (1 s warm-up, then BENCH_ROUND_DURATION); the
# report gives each target's median and, for each comparison, the median of its per-round ratios. An uncached
# and a cached instance run side by side (the idle one costs nothing).

# The targets of a round, in the order they run and are reported.
ROUND_TARGETS=(uncached pgbench cache_random cached revalidated trivial trivial_response nginx)
declare -gA ROUND_RPS=() # target -> " rps1 rps2 ..." (TPS for pgbench)

# The report's name of a round target: the name of the matching scenario in the main table.
round_label() {
    case $1 in
        uncached) echo "first page, uncached, random riders" ;;
        pgbench) echo "pgbench first page (c=$PIPELINED)" ;;
        cache_random) echo "first page, cache on, random riders" ;;
        cached) echo "cached page 200 (one URL)" ;;
        revalidated) echo "revalidation 304 (If-None-Match)" ;;
        trivial) echo "trivial Hummingbird route, same bytes" ;;
        trivial_response) echo "trivial Hummingbird route, same response and request" ;;
        nginx) echo "nginx static file, same bytes" ;;
    esac
}

# Runs BENCH_ROUNDS rounds of every target and writes the report's rounds part.
run_rounds() {
    ((ROUNDS > 0)) || return 0
    pgbench_setup
    local extra_port etag round target line args=()
    extra_port=$(pg_pick_free_port 32000 32767)
    start_server uncached "$extra_port"
    EXTRA_SERVER_PID=$SERVER_PID
    start_server cached
    start_nginx
    start_static
    curl -s -o /dev/null "${AUTH[@]}" "$BASE$PAGE1_URL"
    etag=$(deep_rider_etag)
    for round in $(seq 1 "$ROUNDS"); do
        th_log "interleaved round $round of $ROUNDS"
        for target in "${ROUND_TARGETS[@]}"; do
            if [[ $target == pgbench ]]; then
                W_RPS=$(pgbench_round_tps "${PGBENCH_FIRST_PAGE[@]}")
            else
                case $target in
                    uncached) args=(-s bench/lua/first_page.lua "http://127.0.0.1:$extra_port") ;;
                    cache_random) args=(-s bench/lua/first_page.lua "$BASE") ;;
                    cached) args=("${AUTH[@]}" "$BASE$PAGE1_URL") ;;
                    revalidated) args=("${AUTH[@]}" -H "If-None-Match: $etag" "$BASE$PAGE1_URL") ;;
                    trivial) args=("http://127.0.0.1:$STATIC_PORT/page") ;;
                    trivial_response) args=("${AUTH[@]}" "http://127.0.0.1:$STATIC_PORT/response") ;;
                    nginx) args=("http://127.0.0.1:$NGINX_PORT/page") ;;
                esac
                round_wrk "round $round ($target)" - -- "${args[@]}"
            fi
            ROUND_RPS[$target]="${ROUND_RPS[$target]:-} ${W_RPS:-0}"
        done
        line=""
        for target in "${ROUND_TARGETS[@]}"; do line+=" $target ${ROUND_RPS[$target]##* }"; done
        th_log "  req/s:$line"
    done
    stop_server
    stop_pid "$EXTRA_SERVER_PID"
    EXTRA_SERVER_PID=""
    stop_nginx
    stop_static
    write_rounds_part
}

# The report's rounds part: each target's median and runs, then each comparison as the median of its
# per-round ratios against its target, judged on the unrounded median and shown with two decimals.
write_rounds_part() {
    local target
    {
        printf '\n#### Interleaved rounds: %s rounds of %s per target, median req/s (TPS for pgbench)\n\n' "$ROUNDS" "$ROUND_DURATION"
        printf '| target | median | runs |\n|---|---:|---|\n'
        for target in "${ROUND_TARGETS[@]}"; do
            # shellcheck disable=SC2086 # space-separated numbers
            printf '| %s | %s | %s |\n' "$(round_label "$target")" "$(median ${ROUND_RPS[$target]})" "${ROUND_RPS[$target]# }"
        done
        printf '\n| ratio (median of the per-round ratios) | value | rounds | target |\n|---|---:|---|---|\n'
        round_ratio_row "uncached first page / pgbench first page" uncached pgbench ">=" 0.5
        round_ratio_row "cached 200 / trivial Hummingbird route" cached trivial ">=" 0.9
        round_ratio_row "cached 200 / trivial route, same response and request" cached trivial_response ">=" 1.0
        round_ratio_row "cached 200 / nginx (stretch)" cached nginx ">=" 0.5
        round_ratio_row "304 / cached 200" revalidated cached ">=" 1.0
        round_ratio_row "cache on / uncached, random riders (unchanged within noise)" cache_random uncached ">=" 0.9
    } >"$(report_part rounds)"
}

# One comparison row: LABEL, targets A and B (A / B per round), OP TARGET.
round_ratio_row() {
    paired_ratios "${ROUND_RPS[$2]}" "${ROUND_RPS[$3]}"
    printf '| %s | %.2f | %s | %s %s: %s |\n' "$1" "$PAIRED_MEDIAN" "$PAIRED_SHOWN" "$4" "$5" \
        "$(meets "$PAIRED_MEDIAN" "$4" "$5")"
}
