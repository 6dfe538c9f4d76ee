# shellcheck shell=bash
# shellcheck disable=SC2034 # PSQL_BIN, PGBENCH_BIN and BIN are read by the other files in bench/lib.
# The programs a run needs: load generators and servers from apt, PostgreSQL's tools, the release build.

# Installs what is missing (wrk, nginx-light, curl, jq, perf when profiling, PostgreSQL) and sets PG_BIN,
# PSQL_BIN and PGBENCH_BIN.
ensure_tools() {
    local missing=()
    command -v wrk >/dev/null 2>&1 || missing+=(wrk)
    command -v nginx >/dev/null 2>&1 || missing+=(nginx-light)
    command -v curl >/dev/null 2>&1 || missing+=(curl)
    command -v jq >/dev/null 2>&1 || missing+=(jq)
    if [[ $PROFILE == 1 ]]; then command -v perf >/dev/null 2>&1 || missing+=(linux-perf); fi
    if ((${#missing[@]} > 0)); then
        ((EUID == 0)) || th_die "missing ${missing[*]}; run: sudo apt-get install -y ${missing[*]}"
        th_log "installing ${missing[*]} with apt-get"
        DEBIAN_FRONTEND=noninteractive apt-get -qq update >/dev/null
        DEBIAN_FRONTEND=noninteractive apt-get -qq install -y --no-install-recommends "${missing[@]}" >/dev/null
    fi
    pg_ensure_packages server
    PG_BIN=$(pg_bin_dir)
    PSQL_BIN=$PG_BIN/psql
    [[ -x $PSQL_BIN ]] || PSQL_BIN=$(command -v psql)
    PGBENCH_BIN=$PG_BIN/pgbench
    [[ -x $PGBENCH_BIN ]] || PGBENCH_BIN=$(command -v pgbench) || th_die "pgbench not found (apt-get install postgresql-contrib)"
}

# Builds trip-history (and, for the full run, bench-static-server) in release unless BENCH_SKIP_BUILD=1; sets
# BIN to the directory that holds them.
build_release() {
    if [[ $SKIP_BUILD != 1 ]]; then
        local products="trip-history, bench-static-server"
        [[ -z $ONLY ]] || products="trip-history only"
        th_log "building release ($products)"
        swift build -c release --product trip-history >&2
        [[ -n $ONLY ]] || swift build -c release --product bench-static-server >&2
        BIN=$(swift build -c release --show-bin-path)
    else
        BIN=$ROOT/.build/release
    fi
    [[ -x $BIN/trip-history && (-n $ONLY || -x $BIN/bench-static-server) ]] ||
        th_die "release binaries missing in $BIN (unset BENCH_SKIP_BUILD)"
}
