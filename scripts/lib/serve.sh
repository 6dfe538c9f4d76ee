# shellcheck shell=bash
# `trip-history serve` for the scripts that start their own: on a free loopback port, waiting until it is
# ready. Needs scripts/lib/postgres.sh (pg_pick_free_port).

# Starts `BIN serve` on a free loopback port with the environment assignments given (after
# TRIP_HISTORY_METRICS=off, since the metrics listener's fixed port could collide; an assignment may turn it
# back on), logging to LOG, and waits up to 30 s until /readyz answers; tries another port when the one picked
# was taken meanwhile. Sets SERVE_PID (also when it fails, so the caller can stop it) and SERVE_BASE; status 1
# when it never became ready (LOG says why).
th_serve() { # BIN LOG [NAME=VALUE...]
    local bin=$1 log=$2 port
    shift 2
    for _ in 1 2 3; do
        port=$(pg_pick_free_port 18000 18999) || return 1
        env TRIP_HISTORY_METRICS=off "$@" "$bin" serve --host 127.0.0.1 --port "$port" </dev/null >"$log" 2>&1 &
        SERVE_PID=$!
        SERVE_BASE=http://127.0.0.1:$port
        for _ in $(seq 1 150); do
            curl -fsS "$SERVE_BASE/readyz" >/dev/null 2>&1 && return 0
            kill -0 "$SERVE_PID" 2>/dev/null || break
            sleep 0.2
        done
        kill "$SERVE_PID" 2>/dev/null || true
        wait "$SERVE_PID" 2>/dev/null || true
        grep -qi 'address already in use' "$log" || return 1
    done
    return 1
}
