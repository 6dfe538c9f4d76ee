# shellcheck shell=bash
# shellcheck disable=SC2034 # SHARDS_* are settings and results for the scripts that source this file.
# Riders' trips sharded by rider on PL/Proxy, on loopback (issue 44): L logical partitions (a power of two),
# each its own database trip_history_pNNN, placed round-robin on N physical shard servers, and one proxy
# PostgreSQL whose database trip_history holds the PL/Proxy cluster `trips` and its functions. Used by
# scripts/cluster (up --shards N) and scripts/test-shards. Source it after scripts/lib/common.sh,
# scripts/lib/postgres.sh and scripts/lib/cluster.sh; it runs nothing by itself.
#
#   shards_ensure_packages                   apt-get installs PL/Proxy (postgresql-15-plproxy) if missing
#   shards_init DIR PORT_BASE SHARDS PARTITIONS [--formations] [--ephemeral]
#                                            where the topology lives and which ports it takes: the proxy on
#                                            PORT_BASE, shard S (from 0) on PORT_BASE+10*(S+1), or with
#                                            --formations its monitor there and its two nodes on the next two
#   shards_load DIR                          the settings of the topology created in DIR (status 1 if none)
#   shards_up BIN                            starts the shard servers (or formations) and the proxy, creates
#                                            each partition database on its shard, defines the cluster `trips`
#                                            in the proxy, then runs `BIN migrate` on the proxy, which migrates
#                                            every partition, installs the partition functions, makes each
#                                            partition P of L (ids numbered P mod L) and installs the proxy's
#                                            functions (PartitionedSchema); again on a later call
#   shards_move_partition P SHARD            moves partition P's database to shard SHARD by dump and switch:
#                                            P's writes are refused (read-only, never acknowledged) from the
#                                            freeze to the switch of the cluster's option pP, its reads go on;
#                                            the old copy stays on its shard, refusing connections (see
#                                            docs/scaling.md)
#   shards_down [--immediate]                stops the proxy and every shard (the data stays); --immediate
#                                            stops formations' nodes without a checkpoint, for throwaway ones
#   shards_status                            the proxy, the shards and their partitions, answering or not
#   shards_partition_db P / shards_shard_of P
#                                            partition P's database name / the shard that holds it
#   shards_partition_conninfo P              P's libpq connection string as the proxy's cluster has it
#   shards_proxy_reader_uri                  the proxy for a reader: the analysts' reads on each shard's standby
#   shards_partition_uri P / shards_proxy_uri
#                                            URIs for trip-history and psql: a partition's database, the proxy's
#   shards_psql URI ARGS...                  psql -X -q -A -t on URI, stopping at the first error
#
# Placement: rider r is on partition hashint8(r) & (L - 1), PL/Proxy's `RUN ON hashint8(rider_id)`; Swift's
# RiderPlacement and the proxy's trip_history_partition(rider_id) are the same rule. Partition P is on shard
# P mod N, so growing means moving whole partition databases and changing their connection strings.
# Everything runs as the `postgres` user when started as root (PostgreSQL refuses root).

_SHARDS_LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

SHARDS_DIR=""
SHARDS_PORT_BASE=""
SHARDS_COUNT=""
SHARDS_PARTITIONS=""
SHARDS_FORMATIONS=0
SHARDS_EPHEMERAL=0
# The proxy's database, the one the service will connect to, and the PL/Proxy cluster's name.
SHARDS_PROXY_DB=trip_history
SHARDS_CLUSTER=trips
# Partitions moved off their first shard (P mod N), by partition: the shard that holds each now.
declare -gA SHARDS_MOVED=()

shards_ensure_packages() {
    local bin share version
    bin=$(pg_bin_dir) || return 1
    if [[ -x $bin/pg_config ]]; then
        share=$("$bin/pg_config" --sharedir) || return 1
        version=$("$bin/pg_config" --version | sed -E 's/^PostgreSQL ([0-9]+).*/\1/')
    else
        version=$(basename "$(dirname "$bin")")
        share=/usr/share/postgresql/$version
    fi
    [[ -f $share/extension/plproxy.control ]] && return 0
    if ! command -v apt-get >/dev/null 2>&1; then
        th_warn "PL/Proxy is missing: install it for PostgreSQL $version (https://plproxy.github.io) and run this again"
        return 1
    fi
    local sudo=()
    if ((EUID != 0)); then sudo=(sudo -n); fi
    th_log "installing postgresql-$version-plproxy with apt-get"
    ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get -qq update >/dev/null || return 1
    ${sudo[@]+"${sudo[@]}"} env DEBIAN_FRONTEND=noninteractive \
        apt-get -qq install -y --no-install-recommends "postgresql-$version-plproxy" >/dev/null || return 1
    if [[ ! -f $share/extension/plproxy.control ]]; then
        th_warn "PL/Proxy is still missing from $share/extension"
        return 1
    fi
}

# Status 0 when N is a power of two from 1 to 65536 (RiderPlacement.maximumPartitions).
_shards_power_of_two() { [[ $1 =~ ^[0-9]+$ ]] && (($1 >= 1 && $1 <= 65536 && ($1 & ($1 - 1)) == 0)); }

shards_init() {
    local dir=${1:?shards_init DIR PORT_BASE SHARDS PARTITIONS [--formations] [--ephemeral]}
    local port_base=${2:?shards_init DIR PORT_BASE SHARDS PARTITIONS} shards=${3:?} partitions=${4:?}
    local formations=0 ephemeral=0 arg
    shift 4
    for arg in "$@"; do
        case $arg in
            --formations) formations=1 ;;
            --ephemeral) ephemeral=1 ;;
            *) th_die "shards_init: unknown option $arg" ;;
        esac
    done
    _shards_power_of_two "$partitions" || th_die "the number of partitions must be a power of two (1 to 65536): $partitions"
    if ! [[ $shards =~ ^[0-9]+$ ]] || ((shards < 1 || shards > partitions)); then
        th_die "the number of shards must be from 1 to the number of partitions ($partitions): $shards"
    fi
    if ! [[ $port_base =~ ^[0-9]+$ ]] || ((port_base < 1024 || port_base + 10 * shards + 2 > 65535)); then
        th_die "invalid port base $port_base for $shards shards"
    fi
    if shards_load "$dir"; then
        local had="$SHARDS_COUNT shards, $SHARDS_PARTITIONS partitions, formations $SHARDS_FORMATIONS, ports from $SHARDS_PORT_BASE"
        if [[ $had != "$shards shards, $partitions partitions, formations $formations, ports from $port_base" ]]; then
            th_die "$dir holds another topology ($had); stop and delete it first (scripts/cluster down --purge)"
        fi
    fi
    mkdir -p "$dir" || return 1
    SHARDS_DIR=$(cd "$dir" && pwd)
    SHARDS_PORT_BASE=$port_base
    SHARDS_COUNT=$shards
    SHARDS_PARTITIONS=$partitions
    SHARDS_FORMATIONS=$formations
    SHARDS_EPHEMERAL=$ephemeral
    mkdir -p "$SHARDS_DIR/logs"
}

shards_load() {
    local file=${1:?shards_load DIR}/topology key value
    [[ -f $file ]] || return 1
    SHARDS_DIR=$(cd "$1" && pwd)
    while IFS='=' read -r key value; do
        case $key in
            port_base) SHARDS_PORT_BASE=$value ;;
            shards) SHARDS_COUNT=$value ;;
            partitions) SHARDS_PARTITIONS=$value ;;
            formations) SHARDS_FORMATIONS=$value ;;
            ephemeral) SHARDS_EPHEMERAL=$value ;;
            moved.*) SHARDS_MOVED[${key#moved.}]=$value ;;
        esac
    done <"$file"
    [[ -n $SHARDS_PORT_BASE && -n $SHARDS_COUNT && -n $SHARDS_PARTITIONS ]]
}

_shards_save() {
    local partition
    {
        printf 'port_base=%s\nshards=%s\npartitions=%s\nformations=%s\nephemeral=%s\n' "$SHARDS_PORT_BASE" \
            "$SHARDS_COUNT" "$SHARDS_PARTITIONS" "$SHARDS_FORMATIONS" "$SHARDS_EPHEMERAL"
        for partition in "${!SHARDS_MOVED[@]}"; do printf 'moved.%s=%s\n' "$partition" "${SHARDS_MOVED[$partition]}"; done
    } >"$SHARDS_DIR/topology"
}

shards_partition_db() { printf 'trip_history_p%03d\n' "$1"; }
shards_shard_of() { printf '%s\n' "${SHARDS_MOVED[$1]:-$(($1 % SHARDS_COUNT))}"; }
_shards_shard_dir() { printf '%s/shard%s\n' "$SHARDS_DIR" "$1"; }
# The shard's server (plain) or its monitor (formations).
_shards_shard_port() { printf '%s\n' "$((SHARDS_PORT_BASE + 10 * ($1 + 1)))"; }

# Space-separated hosts and ports of shard S's servers: one, or a formation's two nodes.
_shards_shard_hosts() {
    local port
    port=$(_shards_shard_port "$1")
    if ((SHARDS_FORMATIONS == 1)); then
        printf '127.0.0.1,127.0.0.1 %s,%s\n' "$((port + 1))" "$((port + 2))"
    else
        printf '127.0.0.1 %s\n' "$port"
    fi
}

# Key/value form, since PL/Proxy appends the user mapping's `user=...` to it. A formation's shard is reached
# on both nodes, and libpq keeps the one that accepts writes: after a failover the next connection finds the
# new primary.
_shards_conninfo() { # SHARD DBNAME [ATTRS]
    local hosts ports
    read -r hosts ports < <(_shards_shard_hosts "$1")
    printf 'host=%s port=%s dbname=%s connect_timeout=2 sslmode=disable' "$hosts" "$ports" "$2"
    ((SHARDS_FORMATIONS == 1)) && printf ' target_session_attrs=%s' "${3:-read-write}"
    printf '\n'
}

shards_partition_conninfo() { _shards_conninfo "$(shards_shard_of "$1")" "$(shards_partition_db "$1")"; }
# The same for the standby cluster: a formation's standby when one answers, its primary otherwise.
shards_partition_standby_conninfo() {
    _shards_conninfo "$(shards_shard_of "$1")" "$(shards_partition_db "$1")" prefer-standby
}

_shards_uri() { # SHARD DBNAME
    local hosts ports authority="" i
    read -r hosts ports < <(_shards_shard_hosts "$1")
    IFS=, read -r -a hosts <<<"$hosts"
    IFS=, read -r -a ports <<<"$ports"
    for i in "${!hosts[@]}"; do authority+="${authority:+,}${hosts[$i]}:${ports[$i]}"; done
    printf 'postgresql://postgres@%s/%s?sslmode=disable&connect_timeout=2' "$authority" "$2"
    ((SHARDS_FORMATIONS == 1)) && printf '&target_session_attrs=read-write'
    printf '\n'
}

shards_partition_uri() { _shards_uri "$(shards_shard_of "$1")" "$(shards_partition_db "$1")"; }
shards_proxy_uri() { printf 'postgresql://postgres@127.0.0.1:%s/%s\n' "$SHARDS_PORT_BASE" "$SHARDS_PROXY_DB"; }
# The proxy for the service's reader (DATABASE_READ_URL): its sessions name the standby cluster, so the analysts'
# reads run on each shard's standby.
shards_proxy_reader_uri() {
    printf '%s?options=-c%%20trip_history.read_cluster%%3D%s_standby\n' "$(shards_proxy_uri)" "$SHARDS_CLUSTER"
}

shards_psql() {
    local uri=${1:?shards_psql URI ARGS...} bin
    shift
    bin=$(pg_bin_dir) || return 1
    PGCONNECT_TIMEOUT=5 "$bin/psql" -X -q -A -t -v ON_ERROR_STOP=1 "$uri" "$@"
}

# Starts shard S: one PostgreSQL, or a pg_auto_failover formation (monitor, primary, synchronous secondary)
# through scripts/lib/cluster.sh, whose state is one formation at a time, so cl_init selects this one.
_shards_shard_up() {
    local shard=$1 dir port
    dir=$(_shards_shard_dir "$shard")
    port=$(_shards_shard_port "$shard")
    if ((SHARDS_FORMATIONS == 1)); then
        # pg_autoctl creates the nodes' data directories in DIR as the server's user.
        pg_owner_can_use "$dir" || return 1
        cl_init "$dir" "$port" 0 0 || return 1
        cl_formation_up
    else
        # A subshell: start_private_cluster exports DATABASE_URL, which must not leak to the caller. The
        # database `postgres` exists already, so it creates none.
        (
            ephemeral=()
            ((SHARDS_EPHEMERAL == 1)) && ephemeral=(--ephemeral)
            PG_DATABASE_NAME=postgres start_private_cluster "$dir" "$port" ${ephemeral[@]+"${ephemeral[@]}"}
        )
    fi
}

_shards_shard_down() {
    local shard=$1 immediate=$2 dir name
    dir=$(_shards_shard_dir "$shard")
    [[ -d $dir ]] || return 0
    if ((SHARDS_FORMATIONS == 1)); then
        cl_init "$dir" "$(_shards_shard_port "$shard")" 0 0 || return 1
        if [[ $immediate == 1 ]]; then
            for name in node2 node1 monitor; do cl_node_stop "$name" || return 1; done
        else
            cl_formation_down
        fi
    else
        stop_cluster "$dir"
    fi
}

# Creates (once) partition P's database on its shard; `trip-history migrate` on the proxy fills it.
_shards_partition_up() {
    local partition=$1 db shard exists
    db=$(shards_partition_db "$partition")
    shard=$(shards_shard_of "$partition")
    exists=$(shards_psql "$(_shards_uri "$shard" postgres)" -c "SELECT 1 FROM pg_database WHERE datname = '$db'") || {
        th_warn "shard $shard does not answer"
        return 1
    }
    if [[ $exists != 1 ]]; then
        shards_psql "$(_shards_uri "$shard" postgres)" -c "CREATE DATABASE $db" || return 1
    fi
}

# The clusters' definitions: `trips` and its standby twin `trips_standby` (which the analysts' reads use when
# a session names it, scripts/shards/proxy.sql), each one option pN per partition (its connection string) and
# a user mapping that names the user PL/Proxy connects as. Replaced whole in one transaction; PL/Proxy notices
# the change of the server's catalog row and reloads the cluster in every proxy backend at its next call.
_shards_cluster_sql() {
    local p options="" standby_options=""
    for ((p = 0; p < SHARDS_PARTITIONS; p++)); do
        options+=$(printf ",\n    p%s '%s'" "$p" "$(shards_partition_conninfo "$p")")
        standby_options+=$(printf ",\n    p%s '%s'" "$p" "$(shards_partition_standby_conninfo "$p")")
    done
    cat <<EOF
CREATE EXTENSION IF NOT EXISTS plproxy;
BEGIN;
DROP SERVER IF EXISTS $SHARDS_CLUSTER CASCADE;
CREATE SERVER $SHARDS_CLUSTER FOREIGN DATA WRAPPER plproxy OPTIONS (
    connection_lifetime '1800'$options
);
CREATE USER MAPPING FOR PUBLIC SERVER $SHARDS_CLUSTER OPTIONS (user 'postgres');
DROP SERVER IF EXISTS ${SHARDS_CLUSTER}_standby CASCADE;
CREATE SERVER ${SHARDS_CLUSTER}_standby FOREIGN DATA WRAPPER plproxy OPTIONS (
    connection_lifetime '1800'$standby_options
);
CREATE USER MAPPING FOR PUBLIC SERVER ${SHARDS_CLUSTER}_standby OPTIONS (user 'postgres');
COMMIT;
EOF
}

shards_up() {
    local bin=${1:?shards_up BIN} shard partition failed=0 pids=() ephemeral=()
    _shards_save
    for ((shard = 0; shard < SHARDS_COUNT; shard++)); do
        th_log "shard $shard: $(_shards_shard_hosts "$shard")"
        _shards_shard_up "$shard" || th_die "shard $shard did not start (state: $(_shards_shard_dir "$shard"))"
    done
    ((SHARDS_EPHEMERAL == 1)) && ephemeral=(--ephemeral)
    (start_private_cluster "$SHARDS_DIR/proxy" "$SHARDS_PORT_BASE" ${ephemeral[@]+"${ephemeral[@]}"}) ||
        th_die "the proxy did not start (log: $SHARDS_DIR/proxy/postgres.log)"

    # One job per shard, each creating its partitions' databases in turn.
    th_log "creating $SHARDS_PARTITIONS partition databases on $SHARDS_COUNT shards"
    for ((shard = 0; shard < SHARDS_COUNT; shard++)); do
        (
            for ((partition = shard; partition < SHARDS_PARTITIONS; partition += SHARDS_COUNT)); do
                _shards_partition_up "$partition" || exit 1
            done
        ) &
        pids+=($!)
    done
    for shard in "${pids[@]}"; do wait "$shard" || failed=1; done
    ((failed == 0)) || th_die "some partition databases could not be created"

    th_log "defining the cluster '$SHARDS_CLUSTER' in the proxy on 127.0.0.1:$SHARDS_PORT_BASE, then migrating it"
    _shards_cluster_sql | shards_psql "$(shards_proxy_uri)" -f - >>"$SHARDS_DIR/logs/proxy.log" 2>&1 || {
        tail -n 20 "$SHARDS_DIR/logs/proxy.log" >&2
        th_die "the proxy's cluster could not be defined (log: $SHARDS_DIR/logs/proxy.log)"
    }
    DATABASE_URL=$(shards_proxy_uri) "$bin" migrate >>"$SHARDS_DIR/logs/migrate.log" 2>&1 || {
        tail -n 20 "$SHARDS_DIR/logs/migrate.log" >&2
        th_die "trip-history migrate on the proxy failed (log: $SHARDS_DIR/logs/migrate.log)"
    }
    local count
    count=$(shards_psql "$(shards_proxy_uri)" -c "SELECT trip_history_partition_count()") || return 1
    [[ $count == "$SHARDS_PARTITIONS" ]] || th_die "the proxy's cluster has $count partitions, not $SHARDS_PARTITIONS"
}

# Moves partition P's database to SHARD by dump and switch, the way to grow: no rider changes partition, one
# connection string changes. The old copy is frozen first (read-only for every new session, and every session
# open on it ended), so from then on P's writes fail, unacknowledged, and a client retries them with its
# idempotency key; reads go on from the old copy. The frozen database is dumped into SHARD (data, sequences and
# idempotency keys alike), the copies' trips are counted, and the cluster's option pP is switched in the proxy,
# which every proxy backend reloads at its next call: retried writes land on the new copy and replay there.
# Just before the switch the old copy stops accepting connections, so that no reader of it is left. It stays
# on its shard for a rollback (allow connections, unfreeze it and switch back); drop it once satisfied.
shards_move_partition() {
    local partition=${1:?shards_move_partition P SHARD} target=${2:?shards_move_partition P SHARD} source db bin
    local from to counts
    if ! [[ $partition =~ ^[0-9]+$ ]] || ((partition >= SHARDS_PARTITIONS)); then th_die "no partition $partition"; fi
    if ! [[ $target =~ ^[0-9]+$ ]] || ((target >= SHARDS_COUNT)); then th_die "no shard $target"; fi
    source=$(shards_shard_of "$partition")
    ((source != target)) || th_die "partition $partition is on shard $target already"
    db=$(shards_partition_db "$partition")
    bin=$(pg_bin_dir) || return 1
    from=$(_shards_uri "$source" "$db")
    to=$(_shards_uri "$target" "$db")
    [[ -z $(shards_psql "$(_shards_uri "$target" postgres)" -c "SELECT 1 FROM pg_database WHERE datname = '$db'") ]] ||
        th_die "shard $target has a database $db already"
    shards_psql "$(_shards_uri "$target" postgres)" -c "CREATE DATABASE $db" || return 1
    th_log "freezing $db on shard $source"
    shards_psql "$from" -c "ALTER DATABASE $db SET default_transaction_read_only = on" || return 1
    # From now on a formation's read-write connection strings find no server for the frozen copy (its sessions
    # are read-only): the move reads it as the primary.
    from=${from/target_session_attrs=read-write/target_session_attrs=primary}
    shards_psql "$from" -c "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
        WHERE datname = '$db' AND pid <> pg_backend_pid()" >/dev/null || return 1
    th_log "copying $db to shard $target"
    PGCONNECT_TIMEOUT=5 "$bin/pg_dump" --no-owner --no-privileges "$from" |
        shards_psql "$to" -f - >>"$SHARDS_DIR/logs/move-$db.log" 2>&1 || {
        tail -n 20 "$SHARDS_DIR/logs/move-$db.log" >&2
        th_warn "the copy of $db failed; it stays frozen on shard $source (log: $SHARDS_DIR/logs/move-$db.log)"
        return 1
    }
    counts="$(shards_psql "$from" -c "SELECT count(*) FROM trips") $(shards_psql "$to" -c "SELECT count(*) FROM trips")"
    [[ ${counts% *} == "${counts#* }" ]] || th_die "$db's copies differ (trips: $counts); the old copy stays frozen"
    # The new copy is another server's: its transaction ids are not the old copy's. The analysts' feed tokens
    # that hold a position on the old copy are refused from now on (the count of moves, with the server's
    # identity, says so), and the copied entries leave that feed (their ids are the old server's, and would
    # come back in the new server's order) along with the purge's mark; riders' feeds keep them all.
    shards_psql "$to" -c "UPDATE trip_history_partition SET moves = moves + 1;
        UPDATE trip_changes SET xid = NULL WHERE xid IS NOT NULL; DELETE FROM analyst_change_purge" >/dev/null ||
        return 1
    # The service's instances reach each partition themselves (PartitionRoutes): the old copy now refuses every
    # connection, so none of them reads it after the switch; a refused call makes them read the map again.
    shards_psql "$(_shards_uri "$source" postgres)" -c "ALTER DATABASE $db ALLOW_CONNECTIONS false" >/dev/null &&
        shards_psql "$(_shards_uri "$source" postgres)" -c "SELECT count(pg_terminate_backend(pid))
            FROM pg_stat_activity WHERE datname = '$db'" >/dev/null || return 1
    SHARDS_MOVED[$partition]=$target
    _shards_save
    th_log "switching the cluster's p$partition to shard $target"
    shards_psql "$(shards_proxy_uri)" -c "BEGIN; ALTER SERVER $SHARDS_CLUSTER
        OPTIONS (SET p$partition '$(shards_partition_conninfo "$partition")');
        ALTER SERVER ${SHARDS_CLUSTER}_standby
        OPTIONS (SET p$partition '$(shards_partition_standby_conninfo "$partition")'); COMMIT" || return 1
}

shards_down() {
    local shard immediate=0
    [[ ${1:-} == --immediate ]] && immediate=1
    [[ -n $SHARDS_DIR ]] || return 0
    stop_cluster "$SHARDS_DIR/proxy" || th_warn "could not stop the proxy"
    for ((shard = SHARDS_COUNT - 1; shard >= 0; shard--)); do
        _shards_shard_down "$shard" "$immediate" || th_warn "could not stop shard $shard"
    done
}

shards_status() {
    local shard partition answer dbs count
    answer=$(shards_psql "$(shards_proxy_uri)" -c "SELECT trip_history_partition_count()" 2>/dev/null) || answer=""
    printf 'proxy:   127.0.0.1:%s/%s  %s\n' "$SHARDS_PORT_BASE" "$SHARDS_PROXY_DB" \
        "$([[ -n $answer ]] && printf "cluster '%s' of %s partitions" "$SHARDS_CLUSTER" "$answer" || printf 'not answering')"
    for ((shard = 0; shard < SHARDS_COUNT; shard++)); do
        dbs=""
        count=0
        for ((partition = 0; partition < SHARDS_PARTITIONS; partition++)); do
            [[ $(shards_shard_of "$partition") == "$shard" ]] || continue
            dbs+=" p$(printf '%03d' "$partition")"
            count=$((count + 1))
        done
        answer=$(shards_psql "$(_shards_uri "$shard" postgres)" \
            -c "SELECT count(*) FROM pg_database WHERE datname LIKE 'trip\\_history\\_p%'
                AND datname NOT IN (SELECT datname FROM pg_database d JOIN pg_db_role_setting s ON s.setdatabase = d.oid
                    WHERE 'default_transaction_read_only=on' = ANY (s.setconfig))" 2>/dev/null) || answer=""
        printf 'shard%s:  %s  %s;%s\n' "$shard" "$(_shards_shard_hosts "$shard" | tr ' ' ':')" \
            "$([[ -n $answer ]] && printf '%s of %s partition databases' "$answer" "$count" || printf 'not answering')" "$dbs"
        if ((SHARDS_FORMATIONS == 1)); then
            cl_init "$(_shards_shard_dir "$shard")" "$(_shards_shard_port "$shard")" 0 0 >/dev/null 2>&1 || continue
            cl_states | while read -r name state; do
                printf '         %-7s 127.0.0.1:%-5s %s\n' "$name" "$(_cl_port_of "$name")" "$state"
            done
        fi
    done
}
