# shellcheck shell=bash
# The report: every measured scenario is one row of the main table (record); the sections write their own parts
# (report_part); write_report puts the header, the table, the full run's ratios and the parts together, prints
# it, and publish_report replaces this mode's "latest run" block in bench/latest-runs.md (BENCH_OUT).

RESULTS=""                      # TSV rows of the main table, in the order the scenarios ran
declare -gA RPS=() P50=() P99=() # scenario name -> req/s, p50 ms, p99 ms, for the ratios
# The parts sections write, in the order they follow the main table and the full run's ratios and rounds (a
# new section writes report_part NAME and adds NAME here).
REPORT_PARTS=(analyst overload compare profile privacy partitioning)

# The file a section writes its report part NAME to (rounds or one of REPORT_PARTS).
report_part() { printf '%s/report-%s.md' "$WORK" "$1"; }

# Prints report part NAME if the section wrote one.
cat_part() { if [[ -s $(report_part "$1") ]]; then cat "$(report_part "$1")"; fi; }

# Adds one row to the main table and prints it: CPU ticks become CPU-s per 1000 requests, OTHER_TICKS (the
# machine's CPU spent on anything else) CPU-s.
record() { # name rps p50 p99 requests errors server_ticks pg_ticks rss [other_ticks]
    local name=$1 rps=$2 p50=$3 p99=$4 requests=$5 errors=$6 server_ticks=$7 pg_ticks=$8 rss=$9 other_ticks=${10:-}
    local server_cpu pg_cpu other_cpu
    server_cpu=$(cpu_ms_per_request "$server_ticks" "$requests")
    pg_cpu=$(cpu_ms_per_request "$pg_ticks" "$requests")
    other_cpu=$(awk -v t="$other_ticks" -v hz="$CLK_TCK" 'BEGIN { if (t == "") print "-"; else printf "%.1f", (t < 0 ? 0 : t) / hz }')
    RESULTS+="$name	$rps	$p50	$p99	$requests	$errors	$server_cpu	$pg_cpu	$rss	$other_cpu"$'\n'
    RPS[$name]=$rps
    P50[$name]=$p50
    P99[$name]=$p99
    printf '    %-44s %8s req/s  p50 %7s ms  p99 %7s ms  errors %s  cpu/1k srv %s pg %s  rss %s MiB  other %s s\n' \
        "$name" "$rps" "$p50" "$p99" "$errors" "$server_cpu" "$pg_cpu" "$rss" "$other_cpu" >&2
}

# Writes the whole report to WORK/report.md and prints it on stdout.
write_report() {
    local report=$WORK/report.md part
    {
        report_header
        if [[ -n $RESULTS ]]; then
            printf '| scenario | req/s | p50 ms | p99 ms | requests | errors | server CPU-s / 1k req | PostgreSQL CPU-s / 1k req | peak RSS MiB | other CPU-s |\n'
            printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
            printf '%s' "$RESULTS" | awk -F '\t' '{ printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 }'
        fi
        if [[ -z $ONLY ]]; then
            full_run_ratios
            cat_part rounds
        fi
        printf '\n'
        for part in "${REPORT_PARTS[@]}"; do cat_part "$part"; done
    } >"$report"
    printf '\n' >&2
    cat "$report"
}

# The report's title and the run's conditions: machine, software, data, load, seeding, COPY, tokens.
report_header() {
    printf '### Run of %s on %s%s\n\n' "$(date -u '+%Y-%m-%d %H:%M UTC')" "$(hostname)" "${ONLY:+ (BENCH_ONLY=$ONLY)}"
    printf -- '- machine: %s cores, %s, %s GiB RAM, Linux %s\n' "$(nproc)" \
        "$(awk -F ': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" \
        "$(awk '/^MemTotal:/ { printf "%.1f", $2 / 1048576 }' /proc/meminfo)" "$(uname -r)"
    printf -- '- software: %s; PostgreSQL %s; wrk %s; nginx %s\n' "$(swift --version 2>&1 | head -n 1)" \
        "$PG_VERSION_TEXT" "$(wrk -v 2>&1 | head -n 1 | awk '{ print $2 }')" "$(nginx -v 2>&1 | sed 's/.*nginx\///')"
    printf -- '- data: %s trips (%s); %s riders, %s, mean %s trips per rider (median %s, p99 %s, max %s), plus rider %s with %s trips\n' \
        "$TOTAL_TRIPS" "$DB_SIZE" "$RIDERS" "$DISTRIBUTION" "$TRIPS_PER_RIDER" "$MEDIAN_TRIPS" "$P99_TRIPS" "$MAX_TRIPS" \
        "$DEEP_RIDER" "$DEEP_TRIPS"
    printf -- '- load: wrk %s threads, %s connections, %s per scenario after a %s warm-up; pool %s lent + %s pipelined connections; cache switch: %s; LOG_LEVEL=%s; a rider page of %s trips is %s bytes\n' \
        "$THREADS" "$CONNECTIONS" "$DURATION" "$WARMUP" "$POOL_SIZE" "$PIPELINED" "$CACHE_SWITCH" "$SERVER_LOG_LEVEL" "$PAGE_LIMIT" "${PAGE_BYTES:-(not measured)}"
    printf -- '- seeding: %s (whole seed + deep rider + VACUUM ANALYZE + prewarm: %ss)\n' "$MAIN_SEED_LINE" "$SEED_TOTAL_SECONDS"
    printf -- '- COPY comparison: %s\n' "$COPY_NOTE"
    printf -- '- tokens: %s rider tokens in %ss\n\n' "$TOKEN_COUNT" "$TOKEN_SECONDS"
}

# The full run's ratios between rows of the main table (single runs, minutes apart: the rounds judge).
full_run_ratios() {
    local uncached="first page, uncached, random riders" pgb1="pgbench first page (c=$PIPELINED)"
    local cached="cached page 200 (one URL)" revalidated="revalidation 304 (If-None-Match)"
    local busy="healthz, beside uncached saturation" idle="healthz, idle (1 conn, 100/s)"
    local control_busy="control: nginx /healthz, beside the same saturation" control_idle="control: nginx /healthz, idle"
    printf '\n| ratio | value |\n|---|---:|\n'
    printf '| uncached first page req/s / pgbench first page TPS | %s |\n' "$(ratio "${RPS[$uncached]:-}" "${RPS[$pgb1]:-}")"
    printf '| page %s p50 / page 1 p50 (deep rider, uncached) | %s |\n' "$DEEP_PAGE" \
        "$(ratio "${P50[deep rider page $DEEP_PAGE, uncached]:-}" "${P50[deep rider page 1, uncached]:-}")"
    printf '| pgbench page %s TPS / pgbench first page TPS | %s |\n' "$DEEP_PAGE" \
        "$(ratio "${RPS[pgbench page $DEEP_PAGE (c=$PIPELINED)]:-}" "${RPS[$pgb1]:-}")"
    printf '| cached 200 req/s / trivial Hummingbird req/s | %s |\n' \
        "$(ratio "${RPS[$cached]:-}" "${RPS[trivial Hummingbird route, same bytes]:-}")"
    printf '| cached 200 req/s / trivial route with the same response and request (req/s) | %s |\n' \
        "$(ratio "${RPS[$cached]:-}" "${RPS[trivial Hummingbird route, same response and request]:-}")"
    printf '| cached 200 req/s / nginx req/s | %s |\n' "$(ratio "${RPS[$cached]:-}" "${RPS[nginx static file, same bytes]:-}")"
    printf '| 304 req/s / cached 200 req/s | %s |\n' "$(ratio "${RPS[$revalidated]:-}" "${RPS[$cached]:-}")"
    printf '| cache on / uncached, random riders (req/s) | %s |\n' \
        "$(ratio "${RPS[first page, cache on, random riders]:-}" "${RPS[$uncached]:-}")"
    printf '| cache on, %s hot riders / uncached random riders (req/s) | %s |\n' "$HOT_RIDERS" \
        "$(ratio "${RPS[first page, cache on, $HOT_RIDERS hot riders]:-}" "${RPS[$uncached]:-}")"
    printf '| mobile mix, cache on / uncached (req/s) | %s |\n' \
        "$(ratio "${RPS[mobile mix, cache on]:-}" "${RPS[mobile mix, uncached]:-}")"
    printf '| healthz p99 beside saturation / idle | %s ms / %s ms = %s |\n' \
        "${P99[$busy]:-n/a}" "${P99[$idle]:-n/a}" "$(ratio "${P99[$busy]:-}" "${P99[$idle]:-}")"
    printf '| control: nginx /healthz p99 beside the same saturation / idle | %s ms / %s ms = %s |\n' \
        "${P99[$control_busy]:-n/a}" "${P99[$control_idle]:-n/a}" "$(ratio "${P99[$control_busy]:-}" "${P99[$control_idle]:-}")"
}

# Replaces the block of this mode (full, analyst or compare) between its markers in BENCH_OUT with the report,
# or appends the block when the file has none; BENCH_OUT=- writes nothing. One block per mode, so a partial run
# does not hide the last full run; older runs stay in git's history of the file.
publish_report() {
    [[ $OUT != - ]] || return 0
    local mode=${ONLY:-full} begin end
    begin="<!-- bench/run: latest $mode run (replaced by each run of this mode) -->"
    end="<!-- bench/run: end of the latest $mode run -->"
    [[ -f $OUT ]] || printf '# Benchmarks\n' >"$OUT"
    if grep -qxF -- "$begin" "$OUT" && grep -qxF -- "$end" "$OUT"; then
        awk -v begin="$begin" -v end="$end" -v report="$WORK/report.md" '
            $0 == begin { print; while ((getline line < report) > 0) print line; skip = 1; next }
            $0 == end { skip = 0 }
            !skip { print }' "$OUT" >"$WORK/out.md"
        cat "$WORK/out.md" >"$OUT"
        th_log "replaced the latest $mode run in $OUT"
    else
        { printf '\n%s\n' "$begin"; cat "$WORK/report.md"; printf '%s\n' "$end"; } >>"$OUT"
        th_log "appended the latest $mode run to $OUT"
    fi
}
