# shellcheck shell=bash
# shellcheck disable=SC2034 # the figures and inputs set here are read by the sections and the report.
# The data every scenario reads: the seeder-vs-COPY comparison, the seeded riders and the deep rider, the
# tokens and trip ids the wrk Lua scripts read, and what the deep rider's walk yields (page URLs, the page's
# bytes for the baselines, page DEEP_PAGE's position for pgbench).

# Loads BENCH_COPY_RIDERS x 100 trips twice into the empty table, with psql \copy from a file and with the
# seeder, and sets COPY_NOTE to the comparison (the table is emptied afterwards).
compare_seeder_with_copy() {
    COPY_NOTE="skipped (BENCH_COPY_RIDERS=0)"
    SEED_RATE="" PSQL_RATE="" COPY_ROWS=0
    ((COPY_RIDERS > 0)) || return 0
    th_log "seeder vs psql \\copy: $COPY_RIDERS riders x 100 trips into an empty table"
    local dump_out columns started psql_seconds seed_seconds
    dump_out=$("$BIN/trip-history" seed --riders "$COPY_RIDERS" --trips-per-rider 100 --seed "$SEED" \
        --dump-copy-file "$WORK/seed.copy")
    COPY_ROWS=$(wc -l <"$WORK/seed.copy")
    columns=$(printf '%s\n' "$dump_out" | sed -n 's/^Load them with: \\copy trips (\(.*\)) FROM .*/\1/p')
    [[ -n $columns ]] || th_die "could not read the column list from: $dump_out"
    psql_run -c "CHECKPOINT" >/dev/null
    started=$(now_s)
    psql_run -c "\\copy trips ($columns) FROM '$WORK/seed.copy'" >/dev/null
    psql_seconds=$(elapsed_since "$started")
    psql_run -c "TRUNCATE trips, trip_receipts, trip_adjustments, idempotency_keys" -c "CHECKPOINT" >/dev/null
    started=$(now_s)
    "$BIN/trip-history" seed --riders "$COPY_RIDERS" --trips-per-rider 100 --seed "$SEED" >&2
    seed_seconds=$(elapsed_since "$started")
    psql_run -c "TRUNCATE trips, trip_receipts, trip_adjustments, idempotency_keys" -c "CHECKPOINT" >/dev/null
    rm -f "$WORK/seed.copy"
    PSQL_RATE=$(rate "$COPY_ROWS" "$psql_seconds")
    SEED_RATE=$(rate "$COPY_ROWS" "$seed_seconds")
    COPY_NOTE="$COPY_ROWS rows into an empty table with its indexes: trip-history seed ${seed_seconds}s ($SEED_RATE rows/s), psql \\copy from a file ${psql_seconds}s ($PSQL_RATE rows/s): ratio $(ratio "$SEED_RATE" "$PSQL_RATE")x"
    th_log "$COPY_NOTE"
}

# Seeds BENCH_RIDERS riders and the deep rider, then VACUUM ANALYZE and prewarm so no scenario pays for a cold
# cache; sets the data figures of the report's header.
seed_data() {
    th_log "seeding $RIDERS riders ($DISTRIBUTION, $TRIPS_PER_RIDER trips per rider) and deep rider $DEEP_RIDER ($DEEP_TRIPS trips)"
    local started trips_stats
    started=$(now_s)
    "$BIN/trip-history" seed --riders "$RIDERS" --trips-per-rider "$TRIPS_PER_RIDER" --distribution "$DISTRIBUTION" \
        --seed "$SEED" >"$WORK/seed.out"
    cat "$WORK/seed.out" >&2
    MAIN_SEED_LINE=$(tail -n 1 "$WORK/seed.out")
    "$BIN/trip-history" seed --riders 1 --first-rider "$DEEP_RIDER" --trips-per-rider "$DEEP_TRIPS" --seed "$SEED" >&2
    th_log "VACUUM ANALYZE and prewarm"
    psql_run -c "VACUUM ANALYZE trips" -c "CREATE EXTENSION IF NOT EXISTS pg_prewarm" \
        -c "$PREWARM_TRIPS_SQL" >/dev/null
    SEED_TOTAL_SECONDS=$(elapsed_since "$started")
    TOTAL_TRIPS=$(psql_run -At -c "SELECT count(*) FROM trips")
    trips_stats=$(psql_run -At -F ' ' -c "
        SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY n), percentile_disc(0.99) WITHIN GROUP (ORDER BY n), max(n)
        FROM (SELECT count(*) AS n FROM trips WHERE rider_id <= $RIDERS GROUP BY rider_id) c")
    read -r MEDIAN_TRIPS P99_TRIPS MAX_TRIPS <<<"$trips_stats"
    DB_SIZE=$(psql_run -At -c "SELECT pg_size_pretty(pg_total_relation_size('trips'))")
}

# Mints a token per rider (1..DEEP_RIDER) and a service token, samples (rider, trip) pairs, and exports what
# the wrk Lua scripts read (BENCH_TOKENS, BENCH_TRIP_IDS, BENCH_RIDERS, BENCH_SERVICE_TOKEN...).
mint_tokens() {
    th_log "minting $DEEP_RIDER rider tokens"
    local started
    started=$(now_s)
    "$BIN/trip-history" token --role rider --riders "1-$DEEP_RIDER" --ttl 86400 >"$WORK/tokens.tsv"
    TOKEN_SECONDS=$(elapsed_since "$started")
    TOKEN_COUNT=$(wc -l <"$WORK/tokens.tsv")
    th_log "$TOKEN_COUNT tokens in ${TOKEN_SECONDS}s"
    SERVICE_TOKEN=$("$BIN/trip-history" token --role service --ttl 86400)
    DEEP_TOKEN=$(awk -F '\t' -v r="$DEEP_RIDER" '$1 == r { print $2 }' "$WORK/tokens.tsv")
    psql_run -At -F $'\t' -c "SELECT rider_id, id FROM trips TABLESAMPLE SYSTEM (2) REPEATABLE ($SEED)
        WHERE rider_id <= $RIDERS LIMIT 20000" >"$WORK/trip_ids.tsv"

    export BENCH_TOKENS=$WORK/tokens.tsv BENCH_TRIP_IDS=$WORK/trip_ids.tsv BENCH_RIDERS=$RIDERS
    export BENCH_LUA_DIR=$ROOT/bench/lua BENCH_SERVICE_TOKEN=$SERVICE_TOKEN BENCH_RUN_ID BENCH_STATUS_FILE=$WORK/lua-status
    BENCH_RUN_ID=$(th_random_hex 4)
}

# walk_pages NAME FIRST_URL PAGES MAX_SECONDS CURL_ARGS...: follows next_cursor from FIRST_URL (a path on
# BASE) to page PAGES with curl; sets WALK_URL to the last page's URL and WALK_BODY to its body, and writes
# page 1's body to WORK/walk-first.json. Dies when a page fails or the pages end early.
walk_pages() {
    local name=$1 first_url=$2 pages=$3 max_seconds=$4 url page body cursor
    shift 4
    url=$first_url
    for page in $(seq 1 "$pages"); do
        WALK_URL=$url
        body=$(curl -sf --max-time "$max_seconds" "$@" "$BASE$url") || th_die "$name page $page failed: $url"
        if ((page == 1)); then printf '%s' "$body" >"$WORK/walk-first.json"; fi
        ((page == pages)) && break
        cursor=$(jq -r '.page.next_cursor // empty' <<<"$body")
        [[ -n $cursor ]] || th_die "the $name walk ended at page $page"
        url="$first_url&cursor=$cursor"
    done
    WALK_BODY=$body
}

# Walks the deep rider (AUTH) to page DEEP_PAGE on the running service: sets PAGE1_URL, DEEP_URL, WORK/page.json
# (page 1's bytes, which nginx and the trivial route serve) with PAGE_BYTES, WORK/page.head (page 1's response
# head, which the trivial route can answer with too), and DEEP_AT/DEEP_ID, the position of page DEEP_PAGE (the
# last trip of the page before) for pgbench, checked against the walk.
walk_deep_rider() {
    th_log "walking the deep rider to page $DEEP_PAGE"
    PAGE1_URL="/v1/riders/$DEEP_RIDER/trips?limit=$PAGE_LIMIT"
    local started walk_seconds deep_first_id next_id
    started=$(now_s)
    walk_pages "deep rider" "$PAGE1_URL" "$DEEP_PAGE" 60 "${AUTH[@]}"
    walk_seconds=$(elapsed_since "$started")
    DEEP_URL=$WALK_URL
    deep_first_id=$(jq -r '.data[0].id' <<<"$WALK_BODY")
    mv "$WORK/walk-first.json" "$WORK/page.json"
    chmod 644 "$WORK/page.json"
    PAGE_BYTES=$(wc -c <"$WORK/page.json")
    curl -s -D "$WORK/page.head" -o /dev/null "${AUTH[@]}" "$BASE$PAGE1_URL"
    th_log "walked $DEEP_PAGE pages in ${walk_seconds}s; a page is $PAGE_BYTES bytes"

    read -r DEEP_AT DEEP_ID next_id <<<"$(psql_run -At -F ' ' -c "
        SELECT to_char(requested_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"+00\"'), id,
            lead(id) OVER (ORDER BY requested_at DESC, id DESC)
        FROM trips WHERE rider_id = $DEEP_RIDER ORDER BY requested_at DESC, id DESC
        OFFSET $(((DEEP_PAGE - 1) * PAGE_LIMIT - 1)) LIMIT 1")"
    [[ $next_id == "$deep_first_id" ]] || th_warn "page $DEEP_PAGE starts at $deep_first_id, SQL says $next_id"
}

# The ETag the running service (BASE) sends for PATH (default PAGE1_URL) as the deep rider; empty when it sends
# none.
deep_rider_etag() { # [PATH]
    curl -s -D - -o /dev/null "${AUTH[@]}" "$BASE${1:-$PAGE1_URL}" |
        awk -F ': ' 'tolower($1) == "etag" { sub(/\r$/, "", $2); print $2 }'
}
