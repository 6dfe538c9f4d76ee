# shellcheck shell=bash
# shellcheck disable=SC2034 # the settings are read by the other files in bench/lib.
# Every BENCH_* variable bench/run reads, with its default and meaning, in one place. Source it, then call
# read_settings; nothing else in bench/ reads BENCH_* (except the wrk Lua scripts, which bench/lib/data.sh
# feeds through the environment).

# Reads the BENCH_* environment into the variables the other files use, and rejects values that cannot work.
read_settings() {
    # Mode: empty (the full run), "rider" (only the rider scenarios), "analyst" (only the analyst API section),
    # "overload" (only the overload and starvation section) or "compare" (an A/B of two builds,
    # BENCH_BASELINE_BIN against this checkout's, on the uncached first page and detail, a cached 200 and a 304),
    # "privacy" (erasures, riders' exports, retention) or "partitioning" (the seeded trips in partitioned copies,
    # measured with the repository's statements). Every mode uses the same build, cluster and seed as the full run.
    ONLY=${BENCH_ONLY:-}
    [[ -z $ONLY || $ONLY =~ ^(rider|analyst|overload|compare|privacy|partitioning)$ ]] ||
        th_die "BENCH_ONLY must be empty, 'rider', 'analyst', 'overload', 'compare', 'privacy' or 'partitioning' (got '$ONLY')"
    BASELINE_BIN=${BENCH_BASELINE_BIN:-}       # compare: the other trip-history binary (e.g. built from an older commit)
    CANDIDATE_BIN=${BENCH_CANDIDATE_BIN:-}     # compare: the binary measured against it; this checkout's build when empty
    # compare: NAME=VALUE settings, separated by spaces, added to each side's environment (the same binary on both
    # sides measures a setting, e.g. BENCH_CANDIDATE_ENV="OTEL_TRACES_EXPORTER=otlp OTEL_TRACES_SAMPLER=always_on");
    # a side that exports traces without an endpoint sends them to an nginx location that answers 200.
    BASELINE_ENV=${BENCH_BASELINE_ENV:-}
    CANDIDATE_ENV=${BENCH_CANDIDATE_ENV:-}
    # compare: BENCH_FORWARDED_FOR (read where the requests are made) is sent as every request's X-Forwarded-For,
    # e.g. with BENCH_CANDIDATE_ENV="TRIP_HISTORY_TRUSTED_FORWARDERS=127.0.0.1" to measure reading it.
    # compare: 1 serves the baseline from a database of its own, migrated by the baseline's own migrations and
    # seeded by it with the same rows and ids, for an A/B across a schema change; 0 serves both from one.
    BASELINE_OWN_DATABASE=${BENCH_BASELINE_OWN_DATABASE:-0}

    # Load generation.
    DURATION=${BENCH_DURATION:-10s}            # length of each measured wrk / pgbench run
    WARMUP=${BENCH_WARMUP:-2s}                 # unmeasured wrk run before each measured one
    CONNECTIONS=${BENCH_CONNECTIONS:-64}       # wrk connections of the saturating scenarios
    THREADS=${BENCH_THREADS:-2}                # wrk threads
    ROUNDS=${BENCH_ROUNDS:-5}                  # interleaved rounds of the headline comparisons and of compare (0 skips the rounds)
    ROUND_DURATION=${BENCH_ROUND_DURATION:-5s} # length of each measured run in those rounds (after a 1s warm-up)
    PRIVACY_ROUNDS=${BENCH_PRIVACY_ROUNDS:-5}  # privacy: riders exported and erased, one per round
    PRIVACY_TRIPS=${BENCH_PRIVACY_TRIPS:-1000} # privacy: trips (each with one adjustment) of each of them
    RETENTION_RIDERS=${BENCH_RETENTION_RIDERS:-1000} # privacy: riders whose trips the retention removes
    RETENTION_TRIPS=${BENCH_RETENTION_TRIPS:-100}    # privacy: trips of each of them
    PARTITION_GRAINS=${BENCH_PARTITION_GRAINS:-month quarter year} # partitioning: the grains of the partitioned copies
    PARTITION_ROUNDS=${BENCH_PARTITION_ROUNDS:-3}      # partitioning: paired rounds of every statement on every table
    PARTITION_DROP_TRIPS=${BENCH_PARTITION_DROP_TRIPS:-1000000} # partitioning: trips of the month that is dropped
    ANALYST_ROUNDS=${BENCH_ANALYST_ROUNDS:-3}  # measured rounds of each export and of COPY in the analyst section
    ANALYST_DEEP_PAGE=${BENCH_ANALYST_DEEP_PAGE:-200} # analyst list page (limit 100) compared with page 1

    # Data.
    RIDERS=${BENCH_RIDERS:-20000}              # seeded riders
    TRIPS_PER_RIDER=${BENCH_TRIPS_PER_RIDER:-50} # their mean (skewed) or exact (uniform) trip count
    DISTRIBUTION=${BENCH_DISTRIBUTION:-skewed} # skewed or uniform
    DEEP_TRIPS=${BENCH_DEEP_TRIPS:-12000}      # trips of the deep rider (id BENCH_RIDERS+1)
    DEEP_PAGE=${BENCH_DEEP_PAGE:-500}          # the deep rider's page walked to and measured
    HOT_RIDERS=${BENCH_HOT_RIDERS:-100}        # riders 1..K of the cached "hot riders" scenario
    SEED=${BENCH_SEED:-1}                      # seed of the generated data
    # A month in the middle of the seeded window (the seeder spreads requests over the two years before
    # 2026-11-01): compare's analyst target and the partitioning section's one-month statements read it.
    MIDDLE_MONTH_FROM=2025-11-01T00:00:00Z MIDDLE_MONTH_TO=2025-12-01T00:00:00Z
    # Riders x 100 trips loaded twice to compare the seeder with psql \copy (0 skips; the modes default to 0).
    if [[ -n $ONLY ]]; then COPY_RIDERS=${BENCH_COPY_RIDERS:-0}; else COPY_RIDERS=${BENCH_COPY_RIDERS:-5000}; fi

    # The served process.
    POOL_SIZE=${BENCH_POOL_SIZE:-8}            # lent connections (writes, exports, stats)
    PIPELINED=${BENCH_PIPELINED:-2}            # pipelined connections (every rider list and detail read); also pgbench's -c
    SERVER_LOG_LEVEL=${BENCH_LOG_LEVEL:-warning} # LOG_LEVEL of the served process
    RATE_LIMIT=${BENCH_RATE_LIMIT:-1000000/1000} # RATE/BURST of every rate-limit class: on, never reached

    # What the run does around the measurements.
    OUT=${BENCH_OUT:-$ROOT/bench/latest-runs.md}  # file whose "latest run" block of this mode is replaced ("-": none)
    PROFILE=${BENCH_PROFILE:-0}                # 1: perf profile of the server under the uncached first page, in the report
    SKIP_BUILD=${BENCH_SKIP_BUILD:-0}          # 1: use the existing release build
    KEEP=${BENCH_KEEP:-0}                      # 1: keep the temporary directory (every wrk and pgbench output)

    PAGE_LIMIT=20 # trips per rider page, as the app asks for them
    check_settings
    # Derived values, not settings.
    DEEP_RIDER=$((RIDERS + 1))
    CLK_TCK=$(getconf CLK_TCK)
}

# Dies with the offending BENCH_* variable when a setting is malformed or the settings contradict each other.
check_settings() {
    local number
    for number in CONNECTIONS THREADS RIDERS TRIPS_PER_RIDER DEEP_TRIPS DEEP_PAGE COPY_RIDERS POOL_SIZE PIPELINED \
        SEED HOT_RIDERS ROUNDS ANALYST_ROUNDS ANALYST_DEEP_PAGE PARTITION_ROUNDS PARTITION_DROP_TRIPS; do
        [[ ${!number} =~ ^[0-9]+$ ]] || th_die "BENCH_$number must be a non-negative integer (got '${!number}')"
    done
    ((ANALYST_ROUNDS >= 1 && ANALYST_DEEP_PAGE >= 2)) ||
        th_die "BENCH_ANALYST_ROUNDS must be >= 1, BENCH_ANALYST_DEEP_PAGE >= 2"
    local grain
    for grain in $PARTITION_GRAINS; do
        [[ $grain =~ ^(month|quarter|year)$ ]] || th_die "BENCH_PARTITION_GRAINS holds month, quarter or year (got '$grain')"
    done
    ((PARTITION_ROUNDS >= 1)) || th_die "BENCH_PARTITION_ROUNDS must be >= 1"
    [[ $DURATION =~ ^[0-9]+[smh]?$ ]] || th_die "BENCH_DURATION must look like 10s"
    [[ $ROUND_DURATION =~ ^[0-9]+[smh]?$ ]] || th_die "BENCH_ROUND_DURATION must look like 5s"
    ((DEEP_TRIPS >= DEEP_PAGE * PAGE_LIMIT)) || th_die "BENCH_DEEP_TRIPS must hold BENCH_DEEP_PAGE pages of $PAGE_LIMIT"
    if [[ $ONLY == compare ]]; then
        [[ -n $BASELINE_BIN ]] ||
            th_die "BENCH_ONLY=compare needs BENCH_BASELINE_BIN, the trip-history binary to compare with"
        BASELINE_BIN=$(realpath -- "$BASELINE_BIN") ||
            th_die "BENCH_BASELINE_BIN is not an executable file: ${BENCH_BASELINE_BIN}"
        [[ -x $BASELINE_BIN ]] || th_die "BENCH_BASELINE_BIN is not an executable file: ${BENCH_BASELINE_BIN}"
        if [[ -n $CANDIDATE_BIN ]]; then
            CANDIDATE_BIN=$(realpath -- "$CANDIDATE_BIN") && [[ -x $CANDIDATE_BIN ]] ||
                th_die "BENCH_CANDIDATE_BIN is not an executable file: ${BENCH_CANDIDATE_BIN}"
        fi
        local setting
        for setting in $BASELINE_ENV $CANDIDATE_ENV; do
            [[ $setting =~ ^[A-Z_][A-Z0-9_]*=[^[:space:]]*$ ]] ||
                th_die "BENCH_BASELINE_ENV and BENCH_CANDIDATE_ENV hold NAME=VALUE settings (got '$setting')"
        done
    fi
}

# A wrk-style duration (10s, 2m, 1h) in seconds.
duration_seconds() {
    local value=$1
    case $value in
        *m) echo $((${value%m} * 60)) ;;
        *h) echo $((${value%h} * 3600)) ;;
        *) echo "${value%s}" ;;
    esac
}
