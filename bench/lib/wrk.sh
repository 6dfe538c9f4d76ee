# shellcheck shell=bash
# shellcheck disable=SC2034 # W_*, ROUND_*_TICKS and PGBENCH_* are read by the sections.
# Running and parsing the load generators: wrk scenarios (measured, with CPU and RSS accounting), paced probes,
# short runs for interleaved rounds, and pgbench on the repository's own SQL.

# Parses wrk --latency output into W_RPS, W_P50, W_P99 (ms), W_REQUESTS and W_ERRORS (non-2xx/3xx + socket errors).
parse_wrk() {
    local file=$1
    W_RPS=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$file")
    W_P50=$(to_ms "$(awk '$1 == "50%" { print $2 }' "$file")")
    W_P99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$file")")
    W_REQUESTS=$(awk '/requests in/ { print $1 }' "$file")
    local non2xx socket
    non2xx=$(awk '/Non-2xx or 3xx responses:/ { print $NF }' "$file")
    socket=$(awk '/Socket errors:/ { gsub(/,/, ""); print $4 + $6 + $8 + $10 }' "$file")
    W_ERRORS=$((${non2xx:-0} + ${socket:-0}))
}

# Waits for the requests a wrk that just exited left running: the server finishes a request whose client went
# away (a write must), so a measured run started at once would add its connections to theirs for a moment,
# past the writer pool's waiting list, and count the 503s that sheds as its own errors.
let_requests_finish() {
    sleep 1
}

# scenario NAME TARGET_PID -- WRK_ARGS...: warm-up, then a measured wrk run with CPU and peak RSS accounting,
# recorded as one row of the report.
scenario() {
    local name=$1 target=$2
    shift 3
    th_log "scenario: $name"
    if [[ $WARMUP != 0 && $WARMUP != 0s ]]; then
        wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" "$@" >/dev/null 2>&1 || true
        let_requests_finish
    fi
    local file=$WORK/wrk-${name//[^A-Za-z0-9]/_}.txt
    local target_before pg_before busy_before
    reset_peak_rss "$target"
    target_before=$(tree_ticks "$target")
    pg_before=$(pg_ticks)
    busy_before=$(machine_busy_ticks)
    timed_generator "$file" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$@" || th_warn "wrk failed for $name"
    local target_after pg_after busy_after
    target_after=$(tree_ticks "$target")
    pg_after=$(pg_ticks)
    busy_after=$(machine_busy_ticks)
    parse_wrk "$file"
    local target_ticks=$((target_after - target_before)) pg_ticks=$((pg_after - pg_before))
    # CPU the machine spent on anything but the target, PostgreSQL and wrk: other work disturbing the figures.
    local other=$((busy_after - busy_before - target_ticks - pg_ticks - GENERATOR_TICKS))
    record "$name" "$W_RPS" "$W_P50" "$W_P99" "$W_REQUESTS" "$W_ERRORS" \
        "$target_ticks" "$pg_ticks" "$(peak_rss_mib "$target")" "$other"
    if [[ -f $WORK/lua-status ]]; then
        th_log "  statuses: $(cat "$WORK/lua-status")"
        rm -f "$WORK/lua-status"
    fi
}

# A paced prober (a request every 10 ms on one connection) on a URL, for probe latency; prints the wrk output file.
probe() {
    local name=$1 url=$2 seconds=$3
    local file=$WORK/probe-${name//[^A-Za-z0-9]/_}.txt
    BENCH_PACE_MS=10 wrk -t1 -c1 -d"$seconds" --latency -s "$ROOT/bench/lua/paced.lua" "$url" >"$file" 2>&1 || true
    echo "$file"
}

# Records a probe's wrk output FILE as the report row NAME (latency only: no CPU or RSS is charged to a probe).
record_probe() { # NAME FILE
    parse_wrk "$2"
    record "$1" "$W_RPS" "$W_P50" "$W_P99" "$W_REQUESTS" "$W_ERRORS" "" "" "-"
}

# round_wrk WHAT TARGET_PID -- WRK_ARGS...: a 1 s warm-up (and its requests finished), then a measured
# BENCH_ROUND_DURATION run, parsed (W_*); sets ROUND_TARGET_TICKS and ROUND_PG_TICKS, the CPU of TARGET_PID
# (0 for "-") and of PostgreSQL during the measured run. WHAT names the run in warnings. Serves both the
# interleaved rounds and compare.
round_wrk() {
    local what=$1 target=$2 target_before pg_before
    shift 3
    wrk -t"$THREADS" -c"$CONNECTIONS" -d1s "$@" >/dev/null 2>&1 || true
    let_requests_finish
    target_before=0
    [[ $target == - ]] || target_before=$(tree_ticks "$target")
    pg_before=$(pg_ticks)
    wrk -t"$THREADS" -c"$CONNECTIONS" -d"$ROUND_DURATION" "$@" >"$WORK/round.txt" 2>&1 || th_warn "wrk failed in $what"
    ROUND_TARGET_TICKS=0
    [[ $target == - ]] || ROUND_TARGET_TICKS=$(($(tree_ticks "$target") - target_before))
    ROUND_PG_TICKS=$(($(pg_ticks) - pg_before))
    parse_wrk "$WORK/round.txt"
    ((W_ERRORS == 0)) || th_warn "$W_ERRORS errors in $what"
}

# Sets PGBENCH_COMMON (the options every pgbench run shares: prepared statements, as many clients as the
# service's pipelined connections, the parameters the repository sends for a page of PAGE_LIMIT) and
# PGBENCH_FIRST_PAGE (the script and variables of a random seeded rider's first page).
pgbench_setup() {
    # pgbench refuses more threads than clients.
    PGBENCH_COMMON=(-n -M prepared -c "$PIPELINED" -j "$((THREADS < PIPELINED ? THREADS : PIPELINED))"
        -T "$(duration_seconds "$DURATION")" -h 127.0.0.1 -p "$PG_PORT" -U postgres -D lo=-infinity -D hi=infinity
        -D "statuses={completed,canceled}" -D fetch=$((PAGE_LIMIT + 1)))
    PGBENCH_FIRST_PAGE=(-f "$ROOT/bench/pgbench/first_page.sql" -D "riders=$RIDERS" -D at=infinity
        -D id=-9223372036854775808)
}

# pgbench_scenario NAME PGBENCH_ARGS... (the script with -f, its variables with -D): a 2 s warm-up, then a
# measured run with per-transaction logs (latency percentiles) and PostgreSQL's CPU, recorded as a report row.
pgbench_scenario() {
    local name=$1
    shift
    th_log "baseline: $name"
    "$PGBENCH_BIN" "${PGBENCH_COMMON[@]}" -T 2 "$@" "$PG_DATABASE_NAME" >/dev/null 2>&1 || true
    local dir=$WORK/pgbench-${name//[^A-Za-z0-9]/_}
    mkdir -p "$dir"
    local before after busy_before busy_after
    before=$(pg_ticks)
    busy_before=$(machine_busy_ticks)
    (cd "$dir" && timed_generator "$dir/out.txt" "$PGBENCH_BIN" "${PGBENCH_COMMON[@]}" -l "$@" "$PG_DATABASE_NAME" &&
        printf '%s' "$GENERATOR_TICKS" >"$dir/generator-ticks") || { cat "$dir/out.txt" >&2; th_die "pgbench failed"; }
    after=$(pg_ticks)
    busy_after=$(machine_busy_ticks)
    local tps count p50 p99
    tps=$(awk '/^tps = / { printf "%.0f", $3 }' "$dir/out.txt")
    count=$(awk '/number of transactions actually processed:/ { print $NF }' "$dir/out.txt")
    count=${count%%/*}
    p50=$(pgbench_log_quantile_ms "$dir" 0.50 2)
    p99=$(pgbench_log_quantile_ms "$dir" 0.99 2)
    record "$name" "$tps" "$p50" "$p99" "$count" 0 "" $((after - before)) "-" \
        $((busy_after - busy_before - (after - before) - $(cat "$dir/generator-ticks")))
}

# pgbench_log_quantile_ms DIR Q DECIMALS: the Q quantile (0.50, 0.99) of the latencies in DIR's pgbench
# per-transaction logs (-l; their third field is the latency in microseconds), in ms with DECIMALS decimals.
pgbench_log_quantile_ms() {
    cat "$1"/pgbench_log.* | awk '{ print $3 }' | sort -n |
        awk -v q="$2" -v format="%.$3f" '{ a[NR] = $1 } END { printf format, a[int(NR * q) + 1] / 1000 }'
}

# pgbench_round_tps PGBENCH_ARGS...: a 1 s warm-up, then a BENCH_ROUND_DURATION run; prints its TPS.
pgbench_round_tps() {
    "$PGBENCH_BIN" "${PGBENCH_COMMON[@]}" -T 1 "$@" "$PG_DATABASE_NAME" >/dev/null 2>&1 || true
    "$PGBENCH_BIN" "${PGBENCH_COMMON[@]}" -T "$(duration_seconds "$ROUND_DURATION")" "$@" "$PG_DATABASE_NAME" \
        2>/dev/null | awk '/^tps = / { printf "%.0f", $3 }'
}
