# shellcheck shell=bash
# A throwaway service for the test scripts that drive a live server (scripts/test-browser,
# scripts/test-conformance): a PostgreSQL cluster of their own and `trip-history serve`, both on free loopback
# ports, in a work directory that is removed on exit; on a failure it is kept and the server log's last lines
# are shown. Needs scripts/lib/common.sh and scripts/lib/postgres.sh.

# shellcheck source=scripts/lib/serve.sh
source "$ROOT/scripts/lib/serve.sh"

# Makes the Python virtual environment VENV from the pinned REQUIREMENTS unless it already has them (a stamp
# holds their hash); WHOSE says whose packages they are ("the browser tests'").
th_ensure_venv() { # VENV REQUIREMENTS WHOSE
    local venv=$1 requirements=$2 whose=$3 stamp=$1/requirements.sha256 wanted
    wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
    if [[ -x $venv/bin/python && -f $stamp && $(<"$stamp") == "$wanted" ]]; then return 0; fi
    th_log "installing $whose Python packages into ${venv#"$ROOT"/}"
    rm -rf "$venv"
    python3 -m venv "$venv" || th_die "python3 -m venv failed (Debian: apt-get install python3-venv)"
    "$venv/bin/pip" install -q --disable-pip-version-check -r "$requirements" ||
        th_die "pip could not install ${requirements#"$ROOT"/}"
    printf '%s\n' "$wanted" >"$stamp"
}

# Makes WORK_DIR (/tmp/trip-history-NAME.XXXXXX), sets the traps that remove everything on exit, and starts
# the cluster there (start_private_cluster exports its DATABASE_URL). THROWAWAY_HINT, when the script sets it,
# is shown on a failure after the server's log: where the run left what explains it.
throwaway_begin() { # NAME
    THROWAWAY_NAME=$1
    THROWAWAY_HINT=""
    WORK_DIR=""
    SERVER_PID=""
    trap throwaway_cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    trap 'exit 129' HUP
    WORK_DIR=$(mktemp -d "/tmp/trip-history-$THROWAWAY_NAME.XXXXXX")
    chmod 755 "$WORK_DIR"
    local started=0 pg_port
    for _ in 1 2 3; do
        # Another process may grab the port between the check and the start, so try a few.
        pg_port=$(pg_pick_free_port 12000 14999)
        if start_private_cluster "$WORK_DIR/pg" "$pg_port" --ephemeral; then
            started=1
            break
        fi
        th_warn "retrying the $THROWAWAY_NAME cluster on another port"
    done
    ((started == 1)) || th_die "could not start a PostgreSQL cluster for the $THROWAWAY_NAME run"
}

# shellcheck disable=SC2317 # reached through the traps
throwaway_cleanup() {
    local status=$?
    trap - EXIT INT TERM HUP
    if [[ -n $SERVER_PID ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    if [[ -n $WORK_DIR ]]; then
        if [[ -d $WORK_DIR/pg ]]; then remove_cluster "$WORK_DIR/pg" || th_warn "could not remove $WORK_DIR/pg"; fi
        if ((status != 0)) && [[ -f $WORK_DIR/server.log ]]; then
            echo "--- last lines of the server's log ---" >&2
            tail -n 30 "$WORK_DIR/server.log" >&2 || true
            if [[ -n $THROWAWAY_HINT ]]; then echo "--- $THROWAWAY_HINT ---" >&2; fi
        else
            rm -rf "$WORK_DIR"
        fi
    fi
    exit "$status"
}

# Sets BIN to the debug build's trip-history, building it, unless BIN already names a binary.
throwaway_binary() {
    if [[ -z $BIN ]]; then
        th_log "swift build --product trip-history"
        swift build --product trip-history
        BIN="$(swift build --show-bin-path)/trip-history"
    fi
    [[ -x $BIN ]] || th_die "trip-history binary not found at $BIN"
}

# Starts `$BIN serve` (th_serve, scripts/lib/serve.sh) with the environment assignments given, logging to
# WORK_DIR/server.log. Sets SERVER_PID and BASE.
throwaway_serve() { # [NAME=VALUE...]
    th_serve "$BIN" "$WORK_DIR/server.log" "$@" || th_die "could not start trip-history serve for the $THROWAWAY_NAME run"
    SERVER_PID=$SERVE_PID
    # shellcheck disable=SC2034 # read by the script that sources this
    BASE=$SERVE_BASE
}
