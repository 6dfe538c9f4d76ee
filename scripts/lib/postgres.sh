# shellcheck shell=bash
# shellcheck disable=SC2034 # PG_CLUSTER_* are results for the scripts that source this file.
# Provisioning of a private PostgreSQL cluster, shared by scripts/run, scripts/test and the bench scripts.
# Source it (after scripts/lib/common.sh); it runs nothing by itself.
#
#   pg_ensure_packages server|client         installs what is missing with apt: libpq-dev and pkg-config to build,
#                                            plus the server (postgresql) or only psql (postgresql-client)
#   start_private_cluster DIR PORT [--ephemeral] [--ssl-only CERT KEY]
#                                            creates (once) and starts a cluster in DIR listening on 127.0.0.1:PORT,
#                                            creates the database `trip_history` and exports DATABASE_URL and
#                                            TRIP_HISTORY_TEST_PGCTL; --ephemeral trades durability for speed;
#                                            --ssl-only serves TLS with the certificate CERT and its key KEY (PEM)
#                                            and accepts TCP connections only over TLS: `postgres` without a
#                                            password, every other role with its SCRAM password
#   start_standby DIR PORT PRIMARY_PORT DELAY
#                                            copies the running cluster on PRIMARY_PORT into DIR (pg_basebackup -R)
#                                            and starts it as a streaming hot standby on 127.0.0.1:PORT that applies
#                                            each commit DELAY (e.g. 3s) late; exports TRIP_HISTORY_TEST_READ_URL
#   stop_cluster DIR                         stops the cluster in DIR if it runs (fast, then immediate, then kill)
#   remove_cluster DIR                       stops the cluster and deletes DIR
#   pg_cluster_running DIR                   status 0 when the cluster in DIR runs
#   pg_port_in_use PORT                      status 0 when something accepts connections on 127.0.0.1:PORT
#   pg_pick_free_port LOW HIGH               prints a port in [LOW, HIGH] nothing listens on, outside the
#                                            kernel's ephemeral range
#   pg_owner_can_use DIR                     status 0 when the user that runs the server can write to DIR
#
# Layout of DIR: data/ (PGDATA), run/ (unix socket), postgres.log, initdb.log.
# As root the server runs as the `postgres` user (initdb and postgres refuse root), otherwise as the current user.

_PG_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# Database that DATABASE_URL points to; created on first start.
PG_DATABASE_NAME=${PG_DATABASE_NAME:-trip_history}
# Results of the last start_private_cluster: its directory, its port, and 1 when initdb ran just now.
PG_CLUSTER_DIR=""
PG_CLUSTER_PORT=""
PG_CLUSTER_CREATED=0

_pg_log() { printf '==> %s\n' "$*" >&2; }
_pg_err() { printf 'error: %s\n' "$*" >&2; }

# Prints the newest /usr/lib/postgresql/N/bin that holds the server tools, or the directory of `initdb` on PATH.
pg_bin_dir() {
    if [[ -n ${TRIP_HISTORY_PG_BIN:-} ]]; then
        printf '%s\n' "$TRIP_HISTORY_PG_BIN"
        return 0
    fi
    local dir version best="" best_version=-1
    for dir in /usr/lib/postgresql/*/bin; do
        [[ -x $dir/initdb && -x $dir/pg_ctl && -x $dir/postgres ]] || continue
        version=${dir#/usr/lib/postgresql/}
        version=${version%%/*}
        version=${version%%.*}
        [[ $version =~ ^[0-9]+$ ]] || continue
        if ((version > best_version)); then
            best=$dir
            best_version=$version
        fi
    done
    if [[ -z $best ]] && command -v initdb >/dev/null 2>&1; then
        best=$(dirname "$(command -v initdb)")
    fi
    [[ -n $best ]] || return 1
    printf '%s\n' "$best"
}

# Runs a server-side tool as the cluster owner, from `/` so a private working directory does not get in the way.
_pg_as_owner() {
    if ((EUID == 0)); then
        (cd / && runuser -u postgres -- "$@")
    else
        "$@"
    fi
}

_pg_have_libpq_headers() {
    command -v pkg-config >/dev/null 2>&1 && pkg-config --exists libpq && return 0
    [[ -f /usr/include/postgresql/libpq-fe.h ]]
}

_pg_have_server() {
    local bin
    bin=$(pg_bin_dir 2>/dev/null) || return 1
    [[ -x $bin/initdb && -x $bin/pg_ctl && -x $bin/pg_isready ]] || return 1
    [[ -x $bin/psql ]] || command -v psql >/dev/null 2>&1
}

# Installs what is missing; does not touch apt at all when everything is present.
pg_ensure_packages() {
    local client_only=0
    case ${1:-server} in
        server) ;;
        client) client_only=1 ;;
        *)
            _pg_err "pg_ensure_packages server|client"
            return 1
            ;;
    esac
    local missing=()
    command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
    _pg_have_libpq_headers || missing+=(libpq-dev)
    if ((client_only == 0)); then
        _pg_have_server || missing+=(postgresql)
    elif ! command -v psql >/dev/null 2>&1; then
        missing+=(postgresql-client)
    fi

    if ((${#missing[@]} > 0)); then
        if ! command -v apt-get >/dev/null 2>&1; then
            _pg_err "missing ${missing[*]}; install the libpq headers, pkg-config and PostgreSQL 15+" \
                "(macOS: brew install postgresql@15 pkg-config) and run this again"
            return 1
        fi
        local sudo=()
        if ((EUID != 0)); then
            if ! command -v sudo >/dev/null 2>&1; then
                _pg_err "missing ${missing[*]} and not root; run: apt-get install -y ${missing[*]}"
                return 1
            fi
            sudo=(sudo)
            [[ -t 0 ]] || sudo=(sudo -n)
        fi
        _pg_log "installing ${missing[*]} with apt-get"
        ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get -qq update >/dev/null || return 1
        ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive \
            apt-get -qq install -y --no-install-recommends "${missing[@]}" >/dev/null || return 1
    fi

    if ((client_only == 0 && EUID == 0)) && ! id -u postgres >/dev/null 2>&1; then
        _pg_log "creating the system user postgres to own private clusters"
        useradd --system --user-group --no-create-home --home-dir /nonexistent \
            --shell /usr/sbin/nologin postgres || return 1
    fi
    if ((client_only == 0)) && ! _pg_have_server; then
        _pg_err "PostgreSQL server tools (initdb, pg_ctl, pg_isready) still not found"
        return 1
    fi
    return 0
}

# Status 0 when the user that runs the server can create files in DIR (as root: the postgres user,
# which cannot reach a checkout under a private home such as /root). Creates DIR and, as root, hands it over.
pg_owner_can_use() {
    local dir=$1
    mkdir -p "$dir" || return 1
    if ((EUID == 0)); then
        chown postgres:postgres "$dir" || return 1
        (cd / && runuser -u postgres -- test -w "$dir" -a -x "$dir")
    else
        [[ -w $dir ]]
    fi
}

pg_port_in_use() {
    local port=$1
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
}

# Ports in the kernel's ephemeral range are skipped: an outgoing connection can take one between this check
# and the server's bind, and the server then fails with "could not create any TCP/IP sockets".
pg_pick_free_port() {
    local low=$1 high=$2 port ephemeral_low=32768 ephemeral_high=60999
    if [[ -r /proc/sys/net/ipv4/ip_local_port_range ]]; then
        read -r ephemeral_low ephemeral_high </proc/sys/net/ipv4/ip_local_port_range
    fi
    for _ in $(seq 1 100); do
        port=$((low + (RANDOM * 32768 + RANDOM) % (high - low + 1)))
        ((port >= ephemeral_low && port <= ephemeral_high)) && continue
        if ! pg_port_in_use "$port"; then
            printf '%s\n' "$port"
            return 0
        fi
    done
    _pg_err "no free port found in $low-$high"
    return 1
}

pg_cluster_running() {
    local data=$1/data bin
    [[ -f $data/postmaster.pid ]] || return 1
    bin=$(pg_bin_dir) || return 1
    _pg_as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1
}

_pg_locale() {
    # grep without -q reads the list to its end: `grep -q` exits at the first match, and under pipefail locale's
    # SIGPIPE would fail the check now and then.
    if locale -a 2>/dev/null | grep -iE '^c\.utf-?8$' >/dev/null; then
        printf 'C.UTF-8\n'
    else
        printf 'C\n'
    fi
}

# Settings this script owns live in their own file, included from postgresql.conf, so a new port or socket
# directory on a later start simply rewrites it.
_pg_write_settings() {
    local data=$1 port=$2 sock=$3 ephemeral=$4 file=$1/trip_history.conf
    {
        printf '# Written by scripts/lib/postgres.sh on every start; edit that script instead.\n'
        printf 'port = %s\n' "$port"
        printf "listen_addresses = '127.0.0.1'\n"
        printf "unix_socket_directories = '%s'\n" "${sock//\'/\'\'}"
        if [[ $ephemeral == 1 ]]; then
            # A throwaway cluster serves the test suites, whose pools run side by side: at 200 a full run
            # reached the limit and refused connections. A standby's limit must not be below its primary's.
            printf 'max_connections = 400\n'
            printf 'fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n'
        else
            printf 'max_connections = 200\n'
        fi
    } >"$file" || return 1
    if ((EUID == 0)); then chown postgres:postgres "$file" || return 1; fi
}

# TLS with CERT and KEY (copied into PGDATA, where the server insists on owning the key), and an hba file of
# its own that has no `host` line, so a TCP connection without TLS finds no entry and is refused. The file is
# named in trip_history.conf, which every start rewrites: a later start without --ssl-only uses initdb's
# pg_hba.conf again.
_pg_write_ssl_only() { # DATA CERT KEY
    local data=$1 cert=$2 key=$3 hba=$1/trip_history_hba.conf
    install -m 0644 "$cert" "$data/server.crt" || return 1
    install -m 0600 "$key" "$data/server.key" || return 1
    {
        printf '# Written by scripts/lib/postgres.sh (--ssl-only) on every start; edit that script instead.\n'
        printf 'local    all  all                     trust\n'
        printf 'hostssl  all  postgres  127.0.0.1/32  trust\n'
        printf 'hostssl  all  all       127.0.0.1/32  scram-sha-256\n'
    } >"$hba" || return 1
    printf "ssl = on\nssl_cert_file = 'server.crt'\nssl_key_file = 'server.key'\nhba_file = '%s'\n" \
        "${hba//\'/\'\'}" >>"$data/trip_history.conf" || return 1
    if ((EUID == 0)); then chown postgres:postgres "$data/server.crt" "$data/server.key" "$hba" || return 1; fi
}

start_private_cluster() {
    local usage="start_private_cluster DIR PORT [--ephemeral] [--ssl-only CERT KEY]"
    local dir=${1:?$usage} port=${2:?$usage}
    local ephemeral=0 ssl_cert="" ssl_key=""
    shift 2
    while (($# > 0)); do
        case $1 in
            --ephemeral)
                ephemeral=1
                shift
                ;;
            --ssl-only)
                if (($# < 3)) || [[ ! -r $2 || ! -r $3 ]]; then
                    _pg_err "--ssl-only needs a readable certificate and key: $usage"
                    return 1
                fi
                ssl_cert=$2
                ssl_key=$3
                shift 3
                ;;
            *)
                _pg_err "unknown argument $1: $usage"
                return 1
                ;;
        esac
    done
    if ! [[ $port =~ ^[0-9]+$ ]] || ((port < 1024 || port > 65535)); then
        _pg_err "invalid port: $port"
        return 1
    fi
    local bin
    if ! bin=$(pg_bin_dir); then
        _pg_err "PostgreSQL server tools not found; call pg_ensure_packages first"
        return 1
    fi
    if ! pg_owner_can_use "$dir"; then
        _pg_err "the server user cannot write to $dir (a parent directory is private?); use a directory under /tmp"
        return 1
    fi
    dir=$(cd "$dir" && pwd) || return 1
    local data=$dir/data log=$dir/postgres.log sock=$dir/run
    # A unix socket path must fit in 107 bytes; long checkouts fall back to /tmp.
    if ((${#sock} + ${#port} + 10 > 100)); then sock=/tmp; fi

    PG_CLUSTER_CREATED=0
    if [[ ! -f $data/PG_VERSION ]]; then
        _pg_log "creating a PostgreSQL cluster in $data"
        local initdb_args=(-D "$data" -A trust -U postgres --encoding=UTF8 "--locale=$(_pg_locale)")
        ((ephemeral == 1)) && initdb_args+=(--no-sync)
        if ! _pg_as_owner "$bin/initdb" "${initdb_args[@]}" >"$dir/initdb.log" 2>&1; then
            cat "$dir/initdb.log" >&2
            _pg_err "initdb failed (log: $dir/initdb.log)"
            return 1
        fi
        printf "\ninclude_if_exists = 'trip_history.conf'\n" >>"$data/postgresql.conf" || return 1
        PG_CLUSTER_CREATED=1
    fi
    if [[ $sock != /tmp ]]; then
        mkdir -p "$sock" || return 1
        if ((EUID == 0)); then chown postgres:postgres "$sock" || return 1; fi
    fi

    local running_port=""
    if pg_cluster_running "$dir"; then
        running_port=$(sed -n 4p "$data/postmaster.pid")
        if [[ $running_port != "$port" ]]; then
            _pg_log "cluster in $dir runs on port $running_port; restarting it on $port"
            stop_cluster "$dir" || return 1
            running_port=""
        fi
    fi
    _pg_write_settings "$data" "$port" "$sock" "$ephemeral" || return 1
    if [[ -n $ssl_cert ]]; then _pg_write_ssl_only "$data" "$ssl_cert" "$ssl_key" || return 1; fi

    # The command tests use to stop and restart this server. closefds-exec keeps the restarted daemon from
    # inheriting the test process's descriptors; `env -C /` keeps pg_ctl from warning about a working
    # directory the postgres user cannot enter.
    local pg_ctl owner=()
    if ((EUID == 0)); then owner=(runuser -u postgres -- env -C /); fi
    printf -v pg_ctl '%q ' "$_PG_LIB_DIR/closefds-exec" ${owner[@]+"${owner[@]}"} \
        "$bin/pg_ctl" -D "$data" -l "$log" -w -t 60
    pg_ctl=${pg_ctl% }

    if [[ -n $running_port ]]; then
        _pg_log "reusing the PostgreSQL cluster running in $dir on port $port"
    else
        if pg_port_in_use "$port"; then
            _pg_err "port $port on 127.0.0.1 is already in use by another process"
            return 1
        fi
        _pg_log "starting PostgreSQL on 127.0.0.1:$port (log: $log)"
        if ! _pg_as_owner "$bin/pg_ctl" -D "$data" -l "$log" -w -t 60 start >/dev/null; then
            tail -n 20 "$log" >&2 2>/dev/null
            _pg_err "PostgreSQL did not start (log: $log)"
            return 1
        fi
    fi

    local psql=psql
    [[ -x $bin/psql ]] && psql=$bin/psql
    local pg_isready=$bin/pg_isready attempt
    for attempt in $(seq 1 60); do
        "$pg_isready" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres && break
        if ((attempt == 60)); then
            _pg_err "PostgreSQL on port $port is not accepting connections (log: $log)"
            return 1
        fi
        sleep 0.5
    done

    local exists
    exists=$(PGCONNECT_TIMEOUT=5 "$psql" -X -q -A -t -h 127.0.0.1 -p "$port" -U postgres -d postgres \
        -c "SELECT 1 FROM pg_database WHERE datname = '$PG_DATABASE_NAME'") || return 1
    if [[ $exists != 1 ]]; then
        PGCONNECT_TIMEOUT=5 "$psql" -X -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
            -c "CREATE DATABASE \"$PG_DATABASE_NAME\"" || return 1
    fi

    PG_CLUSTER_DIR=$dir
    PG_CLUSTER_PORT=$port
    export DATABASE_URL="postgresql://postgres@127.0.0.1:$port/$PG_DATABASE_NAME"
    # Integration tests append `stop -m fast` or `start` and run the result through `sh -c`.
    export TRIP_HISTORY_TEST_PGCTL=$pg_ctl
    return 0
}

start_standby() {
    local dir=${1:?start_standby DIR PORT PRIMARY_PORT DELAY} port=${2:?} primary_port=${3:?} delay=${4:?}
    local bin
    bin=$(pg_bin_dir) || return 1
    pg_owner_can_use "$dir" || return 1
    dir=$(cd "$dir" && pwd) || return 1
    local data=$dir/data log=$dir/postgres.log sock=$dir/run
    if ((${#sock} + ${#port} + 10 > 100)); then sock=/tmp; fi
    _pg_log "copying the cluster on port $primary_port into a standby in $data"
    if ! _pg_as_owner "$bin/pg_basebackup" -h 127.0.0.1 -p "$primary_port" -U postgres -D "$data" -R \
        -X stream -c fast --no-sync >"$dir/initdb.log" 2>&1; then
        cat "$dir/initdb.log" >&2
        _pg_err "pg_basebackup failed"
        return 1
    fi
    if [[ $sock != /tmp ]]; then
        mkdir -p "$sock" || return 1
        if ((EUID == 0)); then chown postgres:postgres "$sock" || return 1; fi
    fi
    _pg_write_settings "$data" "$port" "$sock" 1 || return 1
    printf "recovery_min_apply_delay = '%s'\nhot_standby_feedback = on\n" "$delay" >>"$data/trip_history.conf"
    _pg_log "starting the standby on 127.0.0.1:$port (apply delay $delay, log: $log)"
    if ! _pg_as_owner "$bin/pg_ctl" -D "$data" -l "$log" -w -t 60 start >/dev/null; then
        tail -n 20 "$log" >&2 2>/dev/null
        _pg_err "the standby did not start (log: $log)"
        return 1
    fi
    export TRIP_HISTORY_TEST_READ_URL="postgresql://postgres@127.0.0.1:$port/$PG_DATABASE_NAME"
    return 0
}

stop_cluster() {
    local dir=${1:?stop_cluster DIR}
    local data=$dir/data bin
    [[ -f $data/postmaster.pid ]] || return 0
    bin=$(pg_bin_dir) || return 1
    pg_cluster_running "$dir" || return 0
    _pg_as_owner "$bin/pg_ctl" -D "$data" -m fast -w -t 30 stop >/dev/null 2>&1 && return 0
    _pg_as_owner "$bin/pg_ctl" -D "$data" -m immediate -w -t 30 stop >/dev/null 2>&1 && return 0
    local pid
    pid=$(sed -n 1p "$data/postmaster.pid" 2>/dev/null)
    if [[ $pid =~ ^[0-9]+$ ]]; then
        _pg_log "killing postmaster $pid of $dir"
        kill -KILL "$pid" 2>/dev/null
        sleep 1
    fi
    ! pg_cluster_running "$dir"
}

remove_cluster() {
    local dir=${1:?remove_cluster DIR}
    [[ -d $dir ]] || return 0
    local entry
    for entry in "$dir"/* "$dir"/.[!.]*; do
        [[ -e $entry ]] || continue
        case ${entry##*/} in
            data | run | postgres.log | initdb.log) ;;
            *)
                _pg_err "refusing to delete $dir: it holds ${entry##*/}, so it is not only a private cluster"
                return 1
                ;;
        esac
    done
    stop_cluster "$dir" || _pg_err "could not stop the cluster in $dir"
    rm -rf -- "$dir"
}
