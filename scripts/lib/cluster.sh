# shellcheck shell=bash
# shellcheck disable=SC2034 # CL_* are settings and results for the scripts that source this file.
# A local high-availability topology on loopback, shared by scripts/cluster, scripts/test-failover and the
# bench: a pg_auto_failover formation (monitor, primary, synchronous secondary), N `trip-history serve`
# instances and haproxy in front of them. Source it after scripts/lib/common.sh and scripts/lib/postgres.sh;
# it runs nothing by itself.
#
#   cl_init DIR PORT_BASE HTTP_PORT [INSTANCES]   where the state lives and which ports it takes: monitor on
#                                                 PORT_BASE, nodes on PORT_BASE+1 and +2, the proxy on
#                                                 HTTP_PORT, instances on HTTP_PORT+1...
#   cl_ensure_packages                            apt-get installs pg_auto_failover, haproxy, curl, jq if missing
#   cl_formation_up                               creates (once) and starts monitor and nodes; waits for a
#                                                 primary and a secondary
#   cl_formation_down                             stops every node and the monitor
#   cl_wait_formation SECONDS                     waits until one node is primary and one secondary, both
#                                                 answering as such
#   cl_states / cl_state_of NAME                  `name state` lines as the monitor has them / NAME's state
#   cl_wait_state NAME STATE SECONDS              waits until NAME reports STATE
#   cl_node_with_state STATE                      prints node1 or node2 (reported state), if any
#   cl_node_stop NAME / cl_node_start NAME        `pg_autoctl stop --immediate` (postgres -m immediate) / run
#   cl_psql NAME ARGS...                          psql as `postgres` on NAME's service database (-A -t)
#   cl_writer_uri / cl_reader_uri                 multi-host URIs: read-write, and prefer-standby for reads
#   cl_instances_up BIN / cl_instances_down       the serve processes, with DATABASE_URL and DATABASE_READ_URL,
#                                                 in strict cache coherence unless TRIP_HISTORY_CACHE_COHERENCE says,
#                                                 trusting the PROXY headers of haproxy (from CL_PROXY_SOURCE)
#   cl_stop_instances DIR                         stops the instances whose pid files are in DIR
#   cl_proxy_up / cl_proxy_down                   haproxy, active checks on /readyz
#   cl_proxy_config DIR HTTP_PORT PORT...         writes DIR/haproxy.cfg from deploy/haproxy.cfg for loopback
#   cl_wait_http URL SECONDS                      waits until URL answers 200
#   cl_post_trip BASE TOKEN KEY [RIDER]           one POST /v1/trips; prints the HTTP status
#
# Everything runs as the `postgres` user when started as root (PostgreSQL refuses root).

CL_DIR=""
CL_PORT_BASE=""
CL_HTTP_PORT=""
CL_INSTANCES=2
CL_PG_BIN=""
# The loopback address haproxy connects to the instances from, and the one address they trust to send PROXY
# headers. Not 127.0.0.1, so the scripts and the bench can still call an instance directly as a client.
CL_PROXY_SOURCE=127.0.0.2
_CL_ENV=()

cl_init() {
    CL_DIR=${1:?cl_init DIR PORT_BASE HTTP_PORT [INSTANCES]}
    CL_PORT_BASE=${2:?cl_init DIR PORT_BASE HTTP_PORT}
    CL_HTTP_PORT=${3:?cl_init DIR PORT_BASE HTTP_PORT}
    CL_INSTANCES=${4:-2}
    CL_PG_BIN=$(pg_bin_dir) || return 1
    mkdir -p "$CL_DIR/xdg/config" "$CL_DIR/xdg/data" "$CL_DIR/xdg/run" "$CL_DIR/logs" "$CL_DIR/run"
    if ((EUID == 0)); then chown -R postgres:postgres "$CL_DIR/xdg" || return 1; fi
    # A PATH of system directories only: pg_autoctl looks for pg_ctl on it, and as `postgres` it cannot read
    # directories under /root that a login shell may have put there.
    _CL_ENV=(env "PATH=$CL_PG_BIN:/usr/local/bin:/usr/bin:/bin" "XDG_CONFIG_HOME=$CL_DIR/xdg/config"
        "XDG_DATA_HOME=$CL_DIR/xdg/data" "XDG_RUNTIME_DIR=$CL_DIR/xdg/run")
}

cl_ensure_packages() {
    local missing=()
    command -v pg_autoctl >/dev/null 2>&1 || missing+=(postgresql-15-auto-failover)
    command -v haproxy >/dev/null 2>&1 || missing+=(haproxy)
    command -v curl >/dev/null 2>&1 || missing+=(curl)
    command -v jq >/dev/null 2>&1 || missing+=(jq)
    ((${#missing[@]} == 0)) && return 0
    local sudo=()
    if ((EUID != 0)); then sudo=(sudo -n); fi
    th_log "installing ${missing[*]} with apt-get"
    ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get -qq update >/dev/null || return 1
    ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive \
        apt-get -qq install -y --no-install-recommends "${missing[@]}" >/dev/null || return 1
}

# pg_autoctl keeps its configuration, state and pid files under the XDG directories, so each topology gets
# its own and two of them never share a keeper.
_cl_autoctl() {
    if ((EUID == 0)); then
        (cd / && runuser -u postgres -- "${_CL_ENV[@]}" pg_autoctl "$@")
    else
        "${_CL_ENV[@]}" pg_autoctl "$@"
    fi
}

_cl_pgdata() { printf '%s/%s\n' "$CL_DIR" "$1"; }
_cl_port_of() {
    case $1 in
        monitor) printf '%s\n' "$CL_PORT_BASE" ;;
        node1) printf '%s\n' "$((CL_PORT_BASE + 1))" ;;
        node2) printf '%s\n' "$((CL_PORT_BASE + 2))" ;;
    esac
}

_cl_monitor_uri() { printf 'postgres://autoctl_node@127.0.0.1:%s/pg_auto_failover?sslmode=disable\n' "$CL_PORT_BASE"; }

# Status 0 when the keeper (`pg_autoctl run`) of NAME is running.
_cl_keeper_running() {
    local pidfile
    pidfile=$(find "$CL_DIR/xdg/run" -name pg_autoctl.pid -path "*/$1/*" 2>/dev/null | head -n 1)
    [[ -n $pidfile ]] || return 1
    local pid
    pid=$(head -n 1 "$pidfile" 2>/dev/null)
    [[ $pid =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null
}

# Starts the keeper of NAME in the background, detached from this shell and its descriptors.
_cl_keeper_start() {
    local name=$1
    _cl_keeper_running "$name" && return 0
    local log=$CL_DIR/logs/$name.log
    touch "$log"
    if ((EUID == 0)); then chown postgres:postgres "$log"; fi
    local owner=()
    if ((EUID == 0)); then owner=(runuser -u postgres --); fi
    (
        cd / || exit 1
        setsid "$_PG_LIB_DIR/closefds-exec" ${owner[@]+"${owner[@]}"} "${_CL_ENV[@]}" \
            pg_autoctl run --pgdata "$(_cl_pgdata "$name")" </dev/null >>"$log" 2>&1 &
    )
}

cl_node_start() { _cl_keeper_start "$1"; }

# Stops NAME's keeper and its PostgreSQL in immediate mode (no checkpoint, backends killed): a crash.
cl_node_stop() {
    _cl_keeper_running "$1" || return 0
    _cl_autoctl stop --immediate --pgdata "$(_cl_pgdata "$1")" >/dev/null 2>&1
    local deadline=$((SECONDS + 30))
    while _cl_keeper_running "$1"; do
        ((SECONDS < deadline)) || return 1
        sleep 0.1
    done
}

# Kills NAME's keeper, its PostgreSQL and every backend with SIGKILL, as a machine's crash would: no shutdown,
# no flush, nothing told to the monitor. The keeper runs in a session of its own (_cl_keeper_start), so its
# session holds all of them.
cl_node_kill() {
    local pidfile sid pids
    pidfile=$(find "$CL_DIR/xdg/run" -name pg_autoctl.pid -path "*/$1/*" 2>/dev/null | head -n 1)
    [[ -n $pidfile ]] || return 1
    sid=$(head -n 1 "$pidfile" 2>/dev/null)
    [[ $sid =~ ^[0-9]+$ ]] || return 1
    sid=$(ps -o sid= -p "$sid" | tr -d ' ')
    [[ -n $sid ]] || return 1
    pids=$(ps -e -o pid=,sid= | awk -v s="$sid" '$2 == s { print $1 }')
    [[ -n $pids ]] || return 1
    # shellcheck disable=SC2086 # one pid per word
    kill -KILL $pids 2>/dev/null || true
    local deadline=$((SECONDS + 30))
    while _cl_keeper_running "$1"; do
        ((SECONDS < deadline)) || return 1
        sleep 0.1
    done
}

_cl_psql() {
    local port=$1
    shift
    PGCONNECT_TIMEOUT=3 "$CL_PG_BIN/psql" -X -q -A -t -h 127.0.0.1 -p "$port" -U postgres "$@"
}

cl_psql() {
    local name=${1:?cl_psql NAME ARGS...}
    shift
    _cl_psql "$(_cl_port_of "$name")" -d "${PG_DATABASE_NAME:-trip_history}" "$@"
}

cl_formation_up() {
    local monitor_data node_data name
    monitor_data=$(_cl_pgdata monitor)
    if [[ ! -f $monitor_data/PG_VERSION ]]; then
        th_log "creating the pg_auto_failover monitor on 127.0.0.1:$CL_PORT_BASE"
        _cl_autoctl create monitor --pgdata "$monitor_data" --pgport "$CL_PORT_BASE" --hostname 127.0.0.1 \
            --auth trust --no-ssl >>"$CL_DIR/logs/create.log" 2>&1 || {
            tail -n 20 "$CL_DIR/logs/create.log" >&2
            return 1
        }
        # Only loopback (the default is every interface; `create monitor` has no --listen).
        _cl_autoctl config set --pgdata "$monitor_data" postgresql.listen_addresses 127.0.0.1 >/dev/null || return 1
    fi
    _cl_keeper_start monitor
    local deadline=$((SECONDS + 60))
    until _cl_psql "$CL_PORT_BASE" -d pg_auto_failover -c "SELECT 1" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || th_die "the monitor did not start (log: $CL_DIR/logs/monitor.log)"
        sleep 0.2
    done
    # Failure detection tuned for one machine, so that a crashed primary is replaced (first write acknowledged
    # through the proxy) within 10 s. The monitor calls a node unhealthy only when both hold: its keeper has
    # not reported for node_considered_unhealthy_timeout AND the monitor's own health check failed. So:
    # - health_check_period 1000 (default 5000): a check a second, so a dead node is known to be down by the
    #   time the report timeout runs out;
    # - health_check_timeout 2000 (default 5000) and health_check_max_retries 2 (default 2) with
    #   health_check_retry_delay 500 (default 2000): a crashed node refuses connections at once and is marked
    #   bad within about 1 s, while a live one slowed by load (this machine is shared with builds) must leave
    #   three connection attempts of 2 s each unanswered in a row before the check fails;
    # - node_considered_unhealthy_timeout 3000 (default 20000): the keepers report every second, so three
    #   missed reports, on top of the failed checks above; one check or one late report alone never counts;
    # - primary_demote_timeout 2500 (default 30000): once the standby stopped replicating, how long the
    #   monitor waits for a lost primary to report that it demoted itself before promoting the standby. A
    #   crashed primary never reports, so this is pure waiting in every failover. It stays longer than what an
    #   isolated but running primary needs to stop on its own: its keeper demotes it after
    #   network_partition_timeout (3 s, below) without the monitor and without a connected standby, counted
    #   from its last contact with the monitor, while the monitor's clock starts only after the unhealthy
    #   timeout (3 s) and the standby's prepare_promotion (about 1 s) have passed, at least 6.5 s after that
    #   contact. And while the standby is not replicating, the old primary cannot acknowledge a commit anyway
    #   (synchronous replication), so a write cannot be acknowledged on both sides.
    _cl_psql "$CL_PORT_BASE" -d pg_auto_failover \
        -c "ALTER SYSTEM SET pgautofailover.health_check_period = 1000" \
        -c "ALTER SYSTEM SET pgautofailover.health_check_timeout = 2000" \
        -c "ALTER SYSTEM SET pgautofailover.health_check_max_retries = 2" \
        -c "ALTER SYSTEM SET pgautofailover.health_check_retry_delay = 500" \
        -c "ALTER SYSTEM SET pgautofailover.node_considered_unhealthy_timeout = 3000" \
        -c "ALTER SYSTEM SET pgautofailover.primary_demote_timeout = 2500" \
        -c "SELECT pg_reload_conf()" >/dev/null || return 1
    for name in node1 node2; do
        node_data=$(_cl_pgdata "$name")
        if [[ ! -f $node_data/PG_VERSION ]]; then
            th_log "creating $name on 127.0.0.1:$(_cl_port_of "$name")"
            # The first node becomes the primary; the keeper of the second clones it with pg_basebackup, and
            # that needs the first node running.
            _cl_autoctl create postgres --pgdata "$node_data" --pgport "$(_cl_port_of "$name")" \
                --hostname 127.0.0.1 --listen 127.0.0.1 --name "$name" --monitor "$(_cl_monitor_uri)" --auth trust --no-ssl \
                --dbname "${PG_DATABASE_NAME:-trip_history}" >>"$CL_DIR/logs/create.log" 2>&1 || {
                tail -n 20 "$CL_DIR/logs/create.log" >&2
                return 1
            }
            # 3 s (default 20 s) without the monitor and without a connected standby, and an isolated primary
            # demotes itself: before the monitor can promote the other node (primary_demote_timeout above).
            _cl_autoctl config set --pgdata "$node_data" timeout.network_partition_timeout 3 >/dev/null || return 1
            printf "max_connections = 200\n" >>"$node_data/postgresql.conf"
        fi
        _cl_keeper_start "$name"
        # Alone, the first node reports `single`; the second one can only be created once it does.
        if [[ $name == node1 && ! -f $(_cl_pgdata node2)/PG_VERSION ]]; then
            cl_wait_state node1 single 120 || return 1
        fi
    done
    cl_wait_formation 180
}

# Waits until NAME reports STATE.
cl_wait_state() {
    local name=$1 state=$2 deadline=$((SECONDS + $3))
    while ((SECONDS < deadline)); do
        [[ $(cl_state_of "$name") == "$state" ]] && return 0
        sleep 0.2
    done
    th_warn "$name did not reach $state within $3 s (log: $CL_DIR/logs/$name.log)"
    return 1
}

# The reported state of every node as `name state` lines, empty while the monitor cannot answer.
cl_states() {
    _cl_psql "$CL_PORT_BASE" -d pg_auto_failover -F ' ' \
        -c "SELECT nodename, reportedstate FROM pgautofailover.node ORDER BY nodename" 2>/dev/null || true
}

_cl_recovery() { _cl_psql "$(_cl_port_of "$1")" -d postgres -c "SELECT pg_is_in_recovery()" 2>/dev/null || true; }

cl_state_of() { cl_states | awk -v n="$1" '$1 == n { print $2 }'; }

cl_node_with_state() { cl_states | awk -v s="$1" '$2 == s { print $1; exit }'; }

# The monitor keeps the last reported states while nodes are down, so each node must also answer as what it
# is said to be.
cl_wait_formation() {
    local deadline=$((SECONDS + ${1:-120})) primary secondary
    while ((SECONDS < deadline)); do
        primary=$(cl_node_with_state primary)
        secondary=$(cl_node_with_state secondary)
        if [[ -n $primary && -n $secondary ]] &&
            [[ $(_cl_recovery "$primary") == f && $(_cl_recovery "$secondary") == t ]]; then
            return 0
        fi
        sleep 0.2
    done
    th_warn "the formation has no primary and secondary after ${1:-120} s:"
    cl_states >&2
    return 1
}

cl_formation_down() {
    local name
    for name in node2 node1 monitor; do
        if _cl_keeper_running "$name"; then
            _cl_autoctl stop --pgdata "$(_cl_pgdata "$name")" >/dev/null 2>&1 || true
            local deadline=$((SECONDS + 30))
            while _cl_keeper_running "$name" && ((SECONDS < deadline)); do sleep 0.2; done
            if _cl_keeper_running "$name"; then cl_node_stop "$name" || th_warn "could not stop $name"; fi
        fi
    done
}

_cl_hosts() { printf '127.0.0.1:%s,127.0.0.1:%s' "$((CL_PORT_BASE + 1))" "$((CL_PORT_BASE + 2))"; }

# The URI `pg_autoctl show uri --formation default` prints, with the user the service connects as.
cl_writer_uri() {
    printf 'postgresql://postgres@%s/%s?target_session_attrs=read-write&sslmode=disable&connect_timeout=2\n' \
        "$(_cl_hosts)" "${PG_DATABASE_NAME:-trip_history}"
}

# Reads prefer the secondary and fall back to the primary when no standby answers.
cl_reader_uri() {
    printf 'postgresql://postgres@%s/%s?target_session_attrs=prefer-standby&sslmode=disable&connect_timeout=2\n' \
        "$(_cl_hosts)" "${PG_DATABASE_NAME:-trip_history}"
}

cl_instance_port() { printf '%s\n' "$((CL_HTTP_PORT + $1))"; }

# Starts the instances that are not running. TRIP_HISTORY_SECRET must be set; TRIP_HISTORY_MIGRATIONS too.
# OTEL_* variables set by the caller reach every instance (OTEL_TRACES_EXPORTER=otlp turns traces on), each
# instance told apart by service.instance.id unless OTEL_RESOURCE_ATTRIBUTES is set.
cl_instances_up() {
    local bin=${1:?cl_instances_up BIN} i port pidfile
    for ((i = 1; i <= CL_INSTANCES; i++)); do
        port=$(cl_instance_port "$i")
        pidfile=$CL_DIR/run/instance$i.pid
        if [[ -f $pidfile ]] && kill -0 "$(<"$pidfile")" 2>/dev/null; then continue; fi
        pg_port_in_use "$port" && th_die "port $port on 127.0.0.1 is in use (instance $i)"
        (
            export DATABASE_URL DATABASE_READ_URL TRIP_HISTORY_CACHE_COHERENCE
            export TRIP_HISTORY_MAX_CONNECTIONS_PER_ADDRESS TRIP_HISTORY_TRUSTED_PROXIES
            # Several instances: a write on one is never missed by a cached read on another.
            TRIP_HISTORY_CACHE_COHERENCE=${TRIP_HISTORY_CACHE_COHERENCE:-strict}
            # haproxy names each client in a PROXY header, so clients are counted apart; but every load
            # generator of the scripts and the bench runs on this host, one client address.
            TRIP_HISTORY_MAX_CONNECTIONS_PER_ADDRESS=${TRIP_HISTORY_MAX_CONNECTIONS_PER_ADDRESS:-1000}
            TRIP_HISTORY_TRUSTED_PROXIES=${TRIP_HISTORY_TRUSTED_PROXIES:-$CL_PROXY_SOURCE}
            DATABASE_URL=$(cl_writer_uri)
            DATABASE_READ_URL=$(cl_reader_uri)
            cd "$_PG_LIB_DIR/../.." || exit 1
            # Each instance scrapes on a port of its own (the default one would be taken by the first).
            TRIP_HISTORY_METRICS_PORT=$((port + 1000)) \
                OTEL_RESOURCE_ATTRIBUTES=${OTEL_RESOURCE_ATTRIBUTES:-service.instance.id=instance$i} \
                setsid "$_PG_LIB_DIR/closefds-exec" "$bin" serve --host 127.0.0.1 --port "$port" \
                </dev/null >>"$CL_DIR/logs/instance$i.log" 2>&1 &
            printf '%s\n' "$!" >"$pidfile"
        )
    done
    for ((i = 1; i <= CL_INSTANCES; i++)); do
        cl_wait_http "http://127.0.0.1:$(cl_instance_port "$i")/readyz" 60 ||
            th_die "instance $i is not ready (log: $CL_DIR/logs/instance$i.log)"
    done
}

cl_instances_down() { cl_stop_instances "$CL_DIR/run"; }

# Stops the instances whose pid files (instance*.pid) are in DIR: TERM, then KILL after 15 s.
cl_stop_instances() { # DIR
    local pidfile pid deadline
    for pidfile in "$1"/instance*.pid; do
        [[ -f $pidfile ]] || continue
        pid=$(<"$pidfile")
        if [[ $pid =~ ^[0-9]+$ ]] && kill -TERM "$pid" 2>/dev/null; then
            deadline=$((SECONDS + 15))
            while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.1; done
            kill -KILL "$pid" 2>/dev/null || true
        fi
        rm -f "$pidfile"
    done
}

# haproxy rather than nginx: open-source nginx only marks a server down after real requests to it failed,
# while haproxy polls /readyz itself, so an instance that lost its database leaves the rotation before a
# client notices. With every instance out (the seconds of a failover) haproxy answers the 503 below itself,
# with Retry-After like the service's own 503s.
cl_proxy_up() {
    local cfg=$CL_DIR/haproxy.cfg i ports=()
    for ((i = 1; i <= CL_INSTANCES; i++)); do ports+=("$(cl_instance_port "$i")"); done
    cl_proxy_config "$CL_DIR" "$CL_HTTP_PORT" "${ports[@]}" || return 1
    local pidfile=$CL_DIR/run/haproxy.pid
    if ! { [[ -f $pidfile ]] && kill -0 "$(<"$pidfile")" 2>/dev/null; }; then
        pg_port_in_use "$CL_HTTP_PORT" && th_die "port $CL_HTTP_PORT on 127.0.0.1 is in use (proxy)"
        (cd / && "$_PG_LIB_DIR/closefds-exec" haproxy -D -f "$cfg" </dev/null >>"$CL_DIR/logs/haproxy.log" 2>&1)
    fi
    cl_wait_http "http://127.0.0.1:$CL_HTTP_PORT/readyz" 30
}

# Writes DIR/haproxy.cfg: deploy/haproxy.cfg (the compose file's) listening on 127.0.0.1:HTTP_PORT, with its
# 503 page copied to DIR, a pidfile in DIR/run and one server per loopback PORT (instance1, instance2...),
# connected to from CL_PROXY_SOURCE with the PROXY header deploy/haproxy.cfg's `default-server` sends;
# checks it with `haproxy -c`. scripts/test-proxy uses it too, so both run the deployed settings.
cl_proxy_config() { # DIR HTTP_PORT PORT...
    local dir=$1 http_port=$2 root i=0 port
    shift 2
    root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    mkdir -p "$dir/run"
    cp "$root/deploy/503.http" "$dir/503.http"
    {
        sed -e "s#^    maxconn 4096#&\n    pidfile $dir/run/haproxy.pid#" \
            -e "s#^    errorfile 503 .*#    errorfile 503 $dir/503.http#" \
            -e "s#^    bind :8090#    bind 127.0.0.1:$http_port#" \
            -e '/^    server /d' "$root/deploy/haproxy.cfg"
        for port in "$@"; do
            i=$((i + 1))
            printf '    server instance%s 127.0.0.1:%s check source %s\n' "$i" "$port" "$CL_PROXY_SOURCE"
        done
    } >"$dir/haproxy.cfg"
    haproxy -c -q -f "$dir/haproxy.cfg"
}

cl_proxy_down() {
    local pidfile=$CL_DIR/run/haproxy.pid pid
    [[ -f $pidfile ]] || return 0
    pid=$(<"$pidfile")
    if [[ $pid =~ ^[0-9]+$ ]]; then
        kill -TERM "$pid" 2>/dev/null || true
        local deadline=$((SECONDS + 10))
        while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.1; done
    fi
    rm -f "$pidfile"
}

cl_wait_http() {
    local url=$1 deadline=$((SECONDS + $2))
    while ((SECONDS < deadline)); do
        [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "$url" 2>/dev/null) == 200 ]] && return 0
        sleep 0.1
    done
    return 1
}

# A trip body for RIDER; KEY keeps it unique and makes a retry safe.
cl_trip_body() {
    local rider=${1:-1}
    printf '{"rider_id": "%s", "status": "completed", "product": "standard", "city": "Paris", "time_zone": "Europe/Paris", "requested_at": "2026-06-01T08:00:00Z", "started_at": "2026-06-01T08:04:00Z", "completed_at": "2026-06-01T08:31:00Z", "pickup": {"lat": 48.8566, "lon": 2.3522, "address": "1 Rue de Rivoli, Paris"}, "dropoff": {"lat": 48.8738, "lon": 2.2950, "address": "Place Charles de Gaulle, Paris"}, "distance_m": 5200, "duration_s": 1620, "fare": {"amount_minor": 1850, "currency": "EUR"}}' "$rider"
}

cl_post_trip() {
    local base=$1 token=$2 key=$3 rider=${4:-1}
    curl -s -o /dev/null -w '%{http_code}' --max-time 5 -X POST "$base/v1/trips" \
        -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -H "Idempotency-Key: $key" \
        -d "$(cl_trip_body "$rider")" 2>/dev/null || true
}
