# shellcheck shell=bash
# shellcheck disable=SC2034 # ports, URLs and versions set here are read by the sections and the report.
# The processes a run starts and always removes: the temporary directory, the throwaway PostgreSQL cluster, the
# service under test, and the nginx and trivial Hummingbird baselines serving a page's bytes. Everything
# listens on 127.0.0.1.

WORK=""              # the temporary directory (/tmp/trip-history-bench.*)
PG_DIR=""            # the cluster's directory, under WORK
SERVER_PID=""        # the service being measured
EXTRA_SERVER_PID=""  # a second service instance (the uncached one of the interleaved rounds)
NGINX_PID=""
STATIC_PID=""        # bench-static-server, the trivial Hummingbird route

# Stops PID: TERM, then KILL after 5 s; nothing when PID is empty or already gone.
stop_pid() {
    local pid=$1
    [[ -n $pid ]] || return 0
    kill -TERM "$pid" 2>/dev/null || return 0
    for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
}

# The EXIT trap: stops every process the run started, removes the cluster and (unless BENCH_KEEP=1) WORK,
# and exits with the run's status.
cleanup() {
    local status=$?
    stop_pid "$SERVER_PID"
    stop_pid "$EXTRA_SERVER_PID"
    stop_pid "$NGINX_PID"
    stop_pid "$STATIC_PID"
    [[ -n $PG_DIR ]] && remove_cluster "$PG_DIR"
    if [[ -n $WORK && ${KEEP:-0} != 1 ]]; then
        rm -rf -- "$WORK"
    elif [[ -n $WORK ]]; then
        th_log "kept $WORK"
    fi
    exit "$status"
}

# Creates WORK; the postgres user (cluster) and nginx's workers must reach files in it.
make_workdir() {
    WORK=$(mktemp -d /tmp/trip-history-bench.XXXXXX)
    chmod 755 "$WORK"
    PG_DIR=$WORK/pg
}

# Waits until URL answers with the expected status (default 200) for at most SECONDS (default 60).
wait_http() { # URL [expected status] [seconds]
    local url=$1 expected=${2:-200} seconds=${3:-60} code
    for _ in $(seq 1 $((seconds * 10))); do
        code=$(curl -s -o /dev/null -w '%{http_code}' "$url" 2>/dev/null || true)
        [[ $code == "$expected" ]] && return 0
        sleep 0.1
    done
    return 1
}

# psql on the benchmark database, stopping at the first error.
psql_run() { "$PSQL_BIN" -X -q -v ON_ERROR_STOP=1 "$DATABASE_URL" "$@"; }

# Reads the trips' partitions with their rider-history and primary-key indexes into shared buffers (pg_prewarm
# reads tables and indexes with storage: the partitions, not their partitioned parents).
PREWARM_TRIPS_SQL="SELECT sum(pg_prewarm(relid)) FROM (
    SELECT relid, isleaf FROM pg_partition_tree('trips') UNION ALL
    SELECT relid, isleaf FROM pg_partition_tree('trips_rider_history') UNION ALL
    SELECT relid, isleaf FROM pg_partition_tree('trips_pkey')) AS r WHERE isleaf"

# Starts the throwaway cluster tuned for benchmarks (durable, sized to this machine's memory), migrates it
# with the release build (the files of MIGRATIONS_DIR when set, else migrations/), and sets the service's secret.
provision_cluster() {
    # Listening ports stay below the ephemeral range (32768+ on Linux), where wrk's closed connections linger in
    # TIME_WAIT and a later bind() could fail.
    PG_PORT=$(pg_pick_free_port 21000 24999)
    start_private_cluster "$PG_DIR" "$PG_PORT"
    local mem_kb shared_buffers_mb
    mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
    shared_buffers_mb=$((mem_kb / 1024 / 4))
    ((shared_buffers_mb > 4096)) && shared_buffers_mb=4096
    th_log "tuning PostgreSQL for benchmarks (shared_buffers ${shared_buffers_mb}MB)"
    psql_run >/dev/null <<SQL
ALTER SYSTEM SET shared_buffers = '${shared_buffers_mb}MB';
ALTER SYSTEM SET effective_cache_size = '$((mem_kb / 1024 / 2))MB';
ALTER SYSTEM SET work_mem = '16MB';
ALTER SYSTEM SET maintenance_work_mem = '1GB';
ALTER SYSTEM SET max_wal_size = '16GB';
ALTER SYSTEM SET min_wal_size = '1GB';
ALTER SYSTEM SET checkpoint_timeout = '30min';
ALTER SYSTEM SET wal_buffers = '64MB';
ALTER SYSTEM SET random_page_cost = 1.1;
ALTER SYSTEM SET jit = off;
SQL
    _pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -t 60 restart >/dev/null
    PG_VERSION_TEXT=$(psql_run -At -c "SHOW server_version")

    export TRIP_HISTORY_SECRET
    TRIP_HISTORY_SECRET=$(th_random_hex 32)
    "$BIN/trip-history" migrate --migrations "${MIGRATIONS_DIR:-$ROOT/migrations}" >&2
}

# Picks the service's port (BASE is its URL) and how to switch its cache off: --no-cache when `serve` has it.
choose_server_options() {
    SERVER_PORT=$(pg_pick_free_port 25000 27999)
    BASE=http://127.0.0.1:$SERVER_PORT
    CACHE_FLAG=()
    # grep without -q reads the help to its end: `grep -q` stops at the first match, and under pipefail the
    # writer's SIGPIPE would fail the pipeline now and then, leaving the cache on for the "uncached" scenarios.
    if "$BIN/trip-history" serve --help 2>&1 | grep -- '--no-cache' >/dev/null; then
        CACHE_FLAG=(--no-cache)
        CACHE_SWITCH="--no-cache"
    else
        CACHE_SWITCH="none (serve has no --no-cache: every scenario is uncached)"
    fi
}

# Starts the service with its cache on or off (default port SERVER_PORT, default binary this checkout's) and
# waits until it is ready; sets SERVER_PID.
# SERVER_ENV (an array of NAME=VALUE) is added to its environment.
start_server() { # MODE (cached|uncached) [PORT [BINARY]]
    local mode=$1 port=${2:-$SERVER_PORT} binary=${3:-$BIN/trip-history} args=() env_cache=on
    # The checkout's migrations, unless SERVER_OWN_MIGRATIONS=1 has the binary check the schema against its own.
    local migrations=(--migrations "$ROOT/migrations")
    [[ ${SERVER_OWN_MIGRATIONS:-0} != 1 ]] || migrations=()
    if [[ $mode == uncached ]]; then
        args=(${CACHE_FLAG[@]+"${CACHE_FLAG[@]}"})
        env_cache=off
    fi
    # No metrics listener, whose fixed port could collide with another run's; the rate limits stay on, so their
    # cost is measured, with limits no scenario reaches (builds without either ignore these variables). Settings
    # go by variable, and the log level under both its names, so baselines built before the flags were renamed
    # run with the same command.
    TRIP_HISTORY_METRICS=off TRIP_HISTORY_RATE_LIMITS=on TRIP_HISTORY_RATE_LIMIT_RIDER=$RATE_LIMIT \
        TRIP_HISTORY_RATE_LIMIT_ANALYST=$RATE_LIMIT TRIP_HISTORY_RATE_LIMIT_SERVICE=$RATE_LIMIT \
        TRIP_HISTORY_RATE_LIMIT_ANONYMOUS=$RATE_LIMIT \
        TRIP_HISTORY_CACHE=$env_cache LOG_LEVEL=$SERVER_LOG_LEVEL TRIP_HISTORY_LOG_LEVEL=$SERVER_LOG_LEVEL \
        TRIP_HISTORY_DB_POOL_SIZE=$POOL_SIZE TRIP_HISTORY_DB_PIPELINED_CONNECTIONS=$PIPELINED env ${SERVER_ENV[@]+"${SERVER_ENV[@]}"} \
        "$binary" serve --host 127.0.0.1 \
        --port "$port" ${migrations[@]+"${migrations[@]}"} \
        --openapi "$ROOT/openapi.yaml" ${args[@]+"${args[@]}"} >>"$WORK/server.log" 2>&1 &
    SERVER_PID=$!
    wait_http "http://127.0.0.1:$port/readyz" 200 60 || { tail -n 30 "$WORK/server.log" >&2; th_die "the service did not become ready"; }
    th_log "service ($mode, $binary) pid $SERVER_PID on http://127.0.0.1:$port"
}

# Stops the service started last.
stop_server() {
    stop_pid "$SERVER_PID"
    SERVER_PID=""
}

# Starts nginx (2 workers, no access log) serving WORK/page.json at /page, a constant /healthz and an OTLP/HTTP
# trace sink at /v1/traces that answers 200; a baseline for the service's bytes, the control beside the health
# probe, and where the A/B of tracing sends spans.
start_nginx() {
    NGINX_DIR=$WORK/nginx
    mkdir -p "$NGINX_DIR"
    NGINX_PORT=$(pg_pick_free_port 28000 29999)
    cat >"$NGINX_DIR/nginx.conf" <<NGINX
worker_processes 2;
pid $NGINX_DIR/nginx.pid;
error_log $NGINX_DIR/error.log warn;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $NGINX_DIR;
    proxy_temp_path $NGINX_DIR;
    fastcgi_temp_path $NGINX_DIR;
    uwsgi_temp_path $NGINX_DIR;
    scgi_temp_path $NGINX_DIR;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location = /page { default_type application/json; alias $WORK/page.json; }
        location = /healthz { default_type application/json; return 200 '{"status":"ok"}'; }
        location = /v1/traces { default_type application/x-protobuf; return 200 ''; }
    }
}
NGINX
    nginx -c "$NGINX_DIR/nginx.conf" -p "$NGINX_DIR" -g 'daemon off;' 2>>"$NGINX_DIR/error.log" &
    NGINX_PID=$!
    wait_http "http://127.0.0.1:$NGINX_PORT/healthz" 200 20 || th_die "nginx did not start (see $NGINX_DIR/error.log)"
}

# Stops nginx.
stop_nginx() {
    stop_pid "$NGINX_PID"
    NGINX_PID=""
}

# Starts bench-static-server, a trivial Hummingbird route serving WORK/page.json from memory at /page, and at
# /response with the service's response head (WORK/page.head) too.
start_static() {
    STATIC_PORT=$(pg_pick_free_port 30000 31999)
    "$BIN/bench-static-server" "$STATIC_PORT" "$WORK/page.json" "$WORK/page.head" >"$WORK/static.log" 2>&1 &
    STATIC_PID=$!
    wait_http "http://127.0.0.1:$STATIC_PORT/page" 200 20 || th_die "bench-static-server did not start"
    local etag
    etag=$(grep -i '^etag:' "$WORK/page.head" | tr -d '\r')
    curl -s -D - -o /dev/null "http://127.0.0.1:$STATIC_PORT/response" | tr -d '\r' | grep -ixF -- "$etag" >/dev/null ||
        th_die "bench-static-server's /response does not carry the service's head ($etag)"
}

# Stops bench-static-server.
stop_static() {
    stop_pid "$STATIC_PID"
    STATIC_PID=""
}
