# shellcheck shell=bash
# The A/B of two builds (BENCH_ONLY=compare): BENCH_BASELINE_BIN and this checkout's trip-history are served in
# turn, uncached, for BENCH_ROUNDS rounds of BENCH_ROUND_DURATION on each target, on the same data. Each round
# measures both builds minutes apart at most, so the drift of a shared VM between rounds cancels out of the
# per-round ratios.

# The Lua scripts (bench/lua/NAME.lua) each build is measured on, in order.
COMPARE_TARGETS=(first_page detail)

# Runs the rounds and writes the report's compare part: per build and target the medians of req/s and of the
# service's and PostgreSQL's CPU per request, then the candidate / baseline paired ratios.
run_compare_section() {
    local -A rps=() server=() pg=()
    local round_count=$((ROUNDS > 0 ? ROUNDS : 1)) round side target binary key
    for round in $(seq 1 "$round_count"); do
        for side in baseline candidate; do
            binary=$BIN/trip-history
            [[ $side == baseline ]] && binary=$BASELINE_BIN
            start_server uncached "$SERVER_PORT" "$binary"
            for target in "${COMPARE_TARGETS[@]}"; do
                key=$side.$target
                round_wrk "round $round ($side, $target)" "$SERVER_PID" -- -s "bench/lua/$target.lua" "$BASE"
                rps[$key]="${rps[$key]:-} ${W_RPS:-0}"
                server[$key]="${server[$key]:-} $(cpu_ms_per_request "$ROUND_TARGET_TICKS" "$W_REQUESTS" "")"
                pg[$key]="${pg[$key]:-} $(cpu_ms_per_request "$ROUND_PG_TICKS" "$W_REQUESTS" "")"
                th_log "  round $round $side $target: ${W_RPS:-0} req/s, server ${server[$key]##* } ms, PostgreSQL ${pg[$key]##* } ms per request"
            done
            stop_server
        done
    done
    # shellcheck disable=SC2016 # backquotes are Markdown
    {
        printf '#### A/B of two builds: %s rounds of %s per build and target, served in turn (uncached)\n\n' \
            "$round_count" "$ROUND_DURATION"
        printf -- '- baseline: `%s` (%s)\n- candidate: this checkout, %s\n\n' "$BASELINE_BIN" \
            "$(sha256sum "$BASELINE_BIN" | cut -c1-12)" "$(git -C "$ROOT" describe --always --dirty 2>/dev/null || echo unknown)"
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
