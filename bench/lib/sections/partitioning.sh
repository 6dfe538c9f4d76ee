# shellcheck shell=bash
# The partitioning section (BENCH_ONLY=partitioning), issue 22's design input: for each grain of
# BENCH_PARTITION_GRAINS (month, quarter, year) in turn, the seeded trips copied into a table range-partitioned
# by requested_at at that grain, with the service's indexes on every partition; both tables read into memory;
# then in paired rounds the repository's own statements, prepared, with the plans the service gets (PT_PLAN_MODES),
# against the copy and an unpartitioned copy built the same way (trips_flat: the seeded table itself holds the
# dead versions of the seeder's updates, which a fresh copy does not, and would flatter every copy), one
# client, p50 latency from pgbench's per-transaction logs; then the copy is dropped, so only two tables of the
# seed's size compete for memory at a time. The statements: a random rider's first page, the deep rider's page
# DEEP_PAGE, the deep rider's first page filtered to one month, an analyst's first page of one city's month.
# The plans (EXPLAIN ANALYZE of the generic plan) go in the report. Then the cost of a month leaving a
# monthly-partitioned table: PARTITION_DROP_TRIPS trips in a month of their own, their `erased` feed entries
# written in one statement, then DETACH PARTITION CONCURRENTLY and DROP TABLE, each timed with its WAL.

# The statements measured: name, pgbench script, its variables (the month and position are set by the section).
partitioning_statements() {
    PT_NAMES=("first page, random rider" "deep rider, page $DEEP_PAGE" "deep rider, one month" "analyst, one city's month")
    PT_SCRIPTS=(first_page.sql deep_page.sql deep_page.sql analyst_city_page.sql)
    PT_VARIABLES=(
        "-D riders=$RIDERS -D lo=-infinity -D hi=infinity -D at=infinity -D id=-9223372036854775808 -D fetch=$((PAGE_LIMIT + 1))"
        "-D deep_rider=$DEEP_RIDER -D lo=-infinity -D hi=infinity -D at=$PT_DEEP_AT -D id=$PT_DEEP_ID -D fetch=$((PAGE_LIMIT + 1))"
        "-D deep_rider=$DEEP_RIDER -D lo=$PT_MONTH_FROM -D hi=$PT_MONTH_TO -D at=$PT_MONTH_TO -D id=-9223372036854775808 -D fetch=$((PAGE_LIMIT + 1))"
        "-D city=Paris -D lo=$PT_MONTH_FROM -D hi=$PT_MONTH_TO -D at=$PT_MONTH_TO -D id=-9223372036854775808 -D fetch=101"
    )
    # The session's plan_cache_mode per statement, as the service runs it: the rider pages are left to the
    # server's choice (which settles on the generic plan after the fifth execution), the analyst page without a
    # product filter runs its generic plan (PostgresAnalystTripRepository).
    PT_PLAN_MODES=(auto auto auto force_generic_plan)
}

run_partitioning_section() {
    th_log "partitioning section: grains $PARTITION_GRAINS, $PARTITION_ROUNDS rounds"
    local grain
    # The middle month, and the position of the deep rider's page DEEP_PAGE (the last trip of the page before).
    PT_MONTH_FROM=$MIDDLE_MONTH_FROM PT_MONTH_TO=$MIDDLE_MONTH_TO
    read -r PT_DEEP_AT PT_DEEP_ID <<<"$(psql_run -At -F ' ' -c "
        SELECT to_char(requested_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"+00\"'), id
        FROM trips WHERE rider_id = $DEEP_RIDER ORDER BY requested_at DESC, id DESC
        OFFSET $(((DEEP_PAGE - 1) * PAGE_LIMIT - 1)) LIMIT 1")"
    partitioning_statements
    PT_GRAINS=() PT_BUILD_NOTES=()
    declare -gA PT_P50=()
    build_copy flat
    for grain in $PARTITION_GRAINS; do
        build_copy "$grain"
        prewarm_tables trips_flat "trips_by_$grain"
        measure_partitioned_reads "trips_by_$grain"
        [[ $grain != month && $grain != year ]] || record_plans "trips_by_$grain"
        [[ $grain != month ]] || measure_month_drop
        psql_run -c "DROP TABLE trips_by_$grain" >/dev/null
        PT_GRAINS+=("$grain")
    done
    write_partitioning_part
    cat "$(report_part partitioning)" >&2
}

# Creates trips_by_GRAIN, range-partitioned by requested_at at GRAIN with one partition per GRAIN from the
# oldest seeded trip to the newest (or trips_flat, unpartitioned, for GRAIN flat), loads every trip, then builds
# the service's trip indexes on the parent (each partition gets its own) and the primary key, which on a
# partitioned table must include the partition key.
build_copy() { # GRAIN
    local grain=$1 table=trips_by_$1 started step partitioning="PARTITION BY RANGE (requested_at)"
    case $grain in month) step='1 month' ;; quarter) step='3 months' ;; year) step='1 year' ;; esac
    [[ $grain != flat ]] || { table=trips_flat partitioning=""; }
    # One partition per GRAIN from the oldest trip's to the newest's (none for the flat copy).
    local partitions=""
    [[ $grain == flat ]] || partitions=$(cat <<SQL
DO \$\$
DECLARE
    first_start timestamptz := (SELECT date_trunc('$grain', min(requested_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' FROM trips);
    last_start timestamptz := (SELECT date_trunc('$grain', max(requested_at) AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' FROM trips);
    start timestamptz;
BEGIN
    start := first_start;
    WHILE start <= last_start LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF $table FOR VALUES FROM (%L) TO (%L)',
            '${table}_' || to_char(start AT TIME ZONE 'UTC', 'YYYY_MM'), start, start + interval '$step');
        start := start + interval '$step';
    END LOOP;
END
\$\$;
SQL
)
    th_log "copying $TOTAL_TRIPS trips into $table"
    started=$(now_s)
    psql_run >/dev/null <<SQL
SET client_min_messages = warning;
DROP TABLE IF EXISTS $table;
CREATE TABLE $table (LIKE trips INCLUDING DEFAULTS INCLUDING CONSTRAINTS) $partitioning;
$partitions
INSERT INTO $table SELECT * FROM trips;
ALTER TABLE $table ADD PRIMARY KEY (id, requested_at);
CREATE INDEX ON $table (rider_id, requested_at DESC, id DESC);
CREATE INDEX ON $table (city, requested_at DESC, id DESC)
    INCLUDE (status, product, fare_currency, fare_amount_minor, distance_m, duration_s);
CREATE INDEX ON $table (requested_at DESC, id DESC)
    INCLUDE (status, product, fare_currency, fare_amount_minor, distance_m, duration_s);
VACUUM ANALYZE $table;
SQL
    local count
    count=$(psql_run -At -c "SELECT count(*) FROM pg_inherits WHERE inhparent = '$table'::regclass")
    ((count > 0)) && count="$count partitions" || count=unpartitioned
    PT_BUILD_NOTES+=("\`$table\`: $count, copied and indexed in $(elapsed_since "$started") s, $(psql_run -At -c "SELECT pg_size_pretty(sum(pg_total_relation_size(c))) FROM (SELECT '$table'::regclass AS c UNION ALL SELECT inhrelid FROM pg_inherits WHERE inhparent = '$table'::regclass) r")")
}

# The pgbench script NAME with its table replaced by TABLE, written once into WORK.
script_on_table() { # NAME TABLE
    local out=$WORK/pt-$2-$1
    [[ -f $out ]] || sed "s/ FROM trips\$/ FROM $2/" "$ROOT/bench/pgbench/$1" >"$out"
    printf '%s' "$out"
}

# p50 latency in ms of one client running SCRIPT on TABLE for BENCH_ROUND_DURATION (after a 1 s warm-up),
# under the session's PLAN_MODE (plan_cache_mode).
pt_p50() { # SCRIPT TABLE VARIABLES PLAN_MODE
    local script dir
    local -x PGOPTIONS="-c plan_cache_mode=$4"
    script=$(script_on_table "$1" "$2")
    dir=$(mktemp -d "$WORK/pt-run.XXXXXX")
    # shellcheck disable=SC2086 # the variables are words
    local common=(-n -M prepared -c 1 -j 1 -h 127.0.0.1 -p "$PG_PORT" -U postgres -f "$script"
        -D "statuses={completed,canceled}" $3)
    "$PGBENCH_BIN" "${common[@]}" -T 1 "$PG_DATABASE_NAME" >/dev/null 2>&1 || true
    (cd "$dir" && "$PGBENCH_BIN" "${common[@]}" -T "$(duration_seconds "$ROUND_DURATION")" -l "$PG_DATABASE_NAME" \
        >"$dir/out.txt" 2>&1) || { cat "$dir/out.txt" >&2; th_die "pgbench failed on $2 with $1"; }
    pgbench_log_quantile_ms "$dir" 0.50 4
    rm -rf "$dir"
}

# Reads TABLES (each partitioned table's partitions) and their indexes into the operating system's cache, so no
# measured statement waits for the disk.
prewarm_tables() { # TABLES...
    local table
    for table in "$@"; do
        psql_run -c "SELECT sum(pg_prewarm(c.oid, 'read')) FROM pg_class c
            WHERE c.relkind IN ('r', 'i') AND (c.oid IN (SELECT '$table'::regclass UNION ALL SELECT inhrelid FROM pg_inherits WHERE inhparent = '$table'::regclass)
               OR c.oid IN (SELECT indexrelid FROM pg_index WHERE indrelid = '$table'::regclass
                   OR indrelid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = '$table'::regclass)))" >/dev/null
    done
}

# Every statement on `trips_flat` and on COPY, PARTITION_ROUNDS rounds, the order of the two swapped each
# round; sets PT_P50["statement|table"] to the p50s of the rounds, in round order (`trips_flat` gets one series
# per copy, under "statement|trips/COPY").
measure_partitioned_reads() { # COPY
    local copy=$1 round index table order
    for ((round = 1; round <= PARTITION_ROUNDS; round++)); do
        if ((round % 2)); then order=(trips_flat "$copy"); else order=("$copy" trips_flat); fi
        for index in "${!PT_NAMES[@]}"; do
            for table in "${order[@]}"; do
                local key="$index|$table"
                [[ $table == trips_flat ]] && key="$index|trips/$copy"
                PT_P50[$key]+="$(pt_p50 "${PT_SCRIPTS[$index]}" "$table" "${PT_VARIABLES[$index]}" "${PT_PLAN_MODES[$index]}") "
            done
            th_log "round $round, ${PT_NAMES[$index]}: trips_flat $(awk '{ print $NF }' <<<"${PT_P50["$index|trips/$copy"]}") ms, $copy $(awk '{ print $NF }' <<<"${PT_P50["$index|$copy"]}") ms"
        done
    done
}

# The generic plans of every statement on COPY (and, the first time, on `trips_flat`), added to WORK/plans.md.
record_plans() { # COPY
    local index table tables=("$1")
    [[ -s $WORK/plans.md ]] || tables=(trips_flat "$1")
    for index in "${!PT_NAMES[@]}"; do
        for table in "${tables[@]}"; do
            printf '%s on `%s`:\n\n```\n%s\n```\n\n' "${PT_NAMES[$index]}" "$table" "$(generic_plan "$index" "$table")"
        done
    done >>"$WORK/plans.md"
}

# EXPLAIN ANALYZE of statement INDEX's generic plan on TABLE: the script's statement prepared with its pgbench
# variables as parameters ($1, $2... in order of appearance), executed with their values (the random rider of
# the first page is the deep rider) under plan_cache_mode = force_generic_plan, as the service's statements run.
generic_plan() { # INDEX TABLE
    local script statement
    script=$(script_on_table "${PT_SCRIPTS[$1]}" "$2")
    # shellcheck disable=SC2086 # the variables are words
    statement=$(grep -v -e '^--' -e '^\\' "$script" | perl -e '
        my %value = map { /^([^=]+)=(.*)$/ ? ($1, $2) : () } @ARGV;
        $value{rider} = $value{deep_rider_for_first_page};
        local $/; my $sql = <STDIN>; $sql =~ s/;\s*$//;
        my (%number, @values);
        $sql =~ s/(?<!:):([a-z_]+)/exists $number{$1} ? "\$$number{$1}"
            : do { push @values, $value{$1}; $number{$1} = scalar @values; "\$$number{$1}" }/ge;
        print "PREPARE measured AS $sql;\nEXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE measured(",
            join(", ", map { /^-?[0-9]+$/ ? $_ : "\x27$_\x27" } @values), ");\n";
    ' $(sed 's/-D //g' <<<"${PT_VARIABLES[$1]}") "statuses={completed,canceled}" "deep_rider_for_first_page=$DEEP_RIDER")
    psql_run -At -c "SET plan_cache_mode = force_generic_plan" -c "$statement" 2>&1
}

# Run with the month grain only. PARTITION_DROP_TRIPS trips in a month of their own of trips_by_month (January
# 2020, before every seeded trip), built as a standalone table and attached; then, timed: their `erased` feed
# entries (one statement, as a retention of partitions writes them), DETACH PARTITION CONCURRENTLY, DROP TABLE.
measure_month_drop() {
    local part=trips_by_month_2020_01 columns shifted
    th_log "month drop: $PARTITION_DROP_TRIPS trips in $part"
    columns=$(psql_run -At -c "SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
        WHERE attrelid = 'trips'::regclass AND attnum > 0 AND NOT attisdropped")
    # Each trip keeps its durations and gets a request time in January 2020 (from its id, so spread over the month).
    local moved="timestamptz '2020-01-01 00:00:00+00' + (id % 2678000) * interval '1 second'"
    shifted=${columns/requested_at/$moved}
    shifted=${shifted/started_at/$moved + (started_at - requested_at)}
    shifted=${shifted/completed_at/$moved + (completed_at - requested_at)}
    psql_run >/dev/null <<SQL
CREATE TABLE $part (LIKE trips_by_month INCLUDING DEFAULTS INCLUDING CONSTRAINTS);
INSERT INTO $part ($columns) SELECT $shifted FROM trips ORDER BY id LIMIT $PARTITION_DROP_TRIPS;
ALTER TABLE $part ADD CONSTRAINT in_month
    CHECK (requested_at >= '2020-01-01 00:00:00+00' AND requested_at < '2020-02-01 00:00:00+00');
ALTER TABLE trips_by_month ATTACH PARTITION $part FOR VALUES FROM ('2020-01-01 00:00:00+00') TO ('2020-02-01 00:00:00+00');
VACUUM ANALYZE $part;
CHECKPOINT;
SQL
    PT_DROP_TRIPS=$(psql_run -At -c "SELECT count(*) FROM $part")
    PT_DROP_RIDERS=$(psql_run -At -c "SELECT count(DISTINCT rider_id) FROM $part")
    local lsn0 lsn1 lsn2 started feed_s detach_s
    lsn0=$(psql_run -At -c "SELECT pg_current_wal_lsn()")
    started=$(now_s)
    psql_run >/dev/null <<SQL
WITH per_rider AS (
    SELECT rider_id, count(*) AS trips FROM $part GROUP BY rider_id
), counters AS (
    INSERT INTO rider_change_counters AS c (rider_id, last_seq)
    SELECT rider_id, trips + 1 FROM per_rider ORDER BY rider_id
    ON CONFLICT (rider_id) DO UPDATE SET last_seq = c.last_seq + EXCLUDED.last_seq - 1
    RETURNING rider_id, last_seq
)
INSERT INTO trip_changes (rider_id, seq, trip_id, change)
SELECT t.rider_id, counters.last_seq - per_rider.trips + row_number() OVER (PARTITION BY t.rider_id ORDER BY t.id),
    t.id, 'erased'
FROM $part t JOIN per_rider USING (rider_id) JOIN counters USING (rider_id);
SQL
    feed_s=$(elapsed_since "$started")
    lsn1=$(psql_run -At -c "SELECT pg_current_wal_lsn()")
    started=$(now_s)
    psql_run -c "ALTER TABLE trips_by_month DETACH PARTITION $part CONCURRENTLY" -c "DROP TABLE $part" >/dev/null
    detach_s=$(elapsed_since "$started")
    lsn2=$(psql_run -At -c "SELECT pg_current_wal_lsn()")
    [[ $(psql_run -At -c "SELECT count(*) FROM trips_by_month WHERE requested_at < '2020-02-01'") == 0 ]] ||
        th_die "the dropped month's trips are still in trips_by_month"
    PT_DROP_NOTE=$(printf '%s trips of %s riders in one month: their `erased` feed entries %s s (%s MB of WAL); DETACH PARTITION CONCURRENTLY + DROP TABLE %s s (%s MB of WAL)' \
        "$PT_DROP_TRIPS" "$PT_DROP_RIDERS" "$feed_s" \
        "$(psql_run -At -c "SELECT round(pg_wal_lsn_diff('$lsn1', '$lsn0') / 1048576.0, 1)")" "$detach_s" \
        "$(psql_run -At -c "SELECT round(pg_wal_lsn_diff('$lsn2', '$lsn1') / 1048576.0, 1)")")
    th_log "$PT_DROP_NOTE"
}

write_partitioning_part() {
    local index grain series
    # shellcheck disable=SC2016 # backquotes are Markdown
    {
        printf '#### Partitioning `trips` by `requested_at`\n\n'
        printf -- '- %s\n' "${PT_BUILD_NOTES[@]}"
        printf -- '- one grain at a time: the copy built, both tables read into memory (`pg_prewarm`), then one client, `pgbench -M prepared` with the plans the service gets (the rider pages: the server'"'"'s choice, which settles on the generic plan after the fifth execution; the analyst page: its generic plan, forced), %s rounds of %s per statement and table, the order of the two swapped each round; p50 ms per round, and the median of the paired ratios; the month is %s, the city Paris\n\n' \
            "$PARTITION_ROUNDS" "$ROUND_DURATION" "${PT_MONTH_FROM%%T*}"
        printf '| statement | grain | `trips_flat` p50 ms | partitioned p50 ms | partitioned / flat |\n|---|---|---:|---:|---:|\n'
        for index in "${!PT_NAMES[@]}"; do
            for grain in "${PT_GRAINS[@]}"; do
                series=${PT_P50["$index|trips/trips_by_$grain"]}
                paired_ratios "${PT_P50["$index|trips_by_$grain"]}" "$series"
                printf '| %s | %s | %s | %s | %.2f |\n' "${PT_NAMES[$index]}" "$grain" "${series% }" \
                    "${PT_P50["$index|trips_by_$grain"]% }" "$PAIRED_MEDIAN"
            done
        done
        printf '\n- month drop: %s\n\n' "${PT_DROP_NOTE:-not measured (no month grain)}"
        if [[ -s $WORK/plans.md ]]; then
            printf '<details><summary>generic plans (EXPLAIN ANALYZE of the prepared statement), unpartitioned, monthly and yearly</summary>\n\n'
            cat "$WORK/plans.md"
            printf '</details>\n\n'
        fi
    } >"$(report_part partitioning)"
}
