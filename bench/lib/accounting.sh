# shellcheck shell=bash
# CPU and memory accounting from /proc: what the service, PostgreSQL, the load generator and the rest of the
# machine spent during a measured window, and the service's peak RSS.

# utime+stime of PID and its live children, plus the CPU of children it already reaped (cutime+cstime), in ticks.
# For PostgreSQL pass the postmaster: backends that exited (pgbench's, a closed pool connection) still count.
tree_ticks() {
    local root=$1 total=0 pid stat rest
    for pid in "$root" $(pgrep -P "$root" 2>/dev/null || true); do
        stat=$(cat "/proc/$pid/stat" 2>/dev/null) || continue
        rest=${stat##*) }
        # shellcheck disable=SC2086
        set -- $rest
        # Fields after the command: state=1 ... utime=12 stime=13 cutime=14 cstime=15.
        total=$((total + ${12} + ${13}))
        if [[ $pid == "$root" ]]; then total=$((total + ${14} + ${15})); fi
    done
    echo "$total"
}

# The PostgreSQL postmaster's pid, the root of every backend's CPU.
postmaster_pid() { sed -n 1p "$PG_DIR/data/postmaster.pid"; }

# The CPU ticks of PostgreSQL: the postmaster, its backends and the backends it reaped.
pg_ticks() { tree_ticks "$(postmaster_pid)"; }

# User and system ticks of the whole machine (every CPU; interrupts and softirqs left out), from /proc/stat.
machine_busy_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 }' /proc/stat; }

# Runs a load generator under /usr/bin/time; its user+system CPU, in ticks, goes to GENERATOR_TICKS.
# shellcheck disable=SC2034 # GENERATOR_TICKS is read by the callers.
timed_generator() { # OUTPUT_FILE COMMAND...
    local output=$1
    shift
    local status=0
    /usr/bin/time -f '%U %S' -o "$WORK/generator-time" "$@" >"$output" 2>&1 || status=$?
    GENERATOR_TICKS=$(awk -v hz="$CLK_TCK" 'END { printf "%.0f", ($1 + $2) * hz }' "$WORK/generator-time" 2>/dev/null || echo 0)
    return "$status"
}

# User+system CPU of this shell's reaped children (curl, psql, wrk, jq...), in ticks; `times` must run in this shell.
children_ticks() {
    times >"$WORK/times"
    awk -v hz="$CLK_TCK" 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) { split($i, p, "m"); sub(/s$/, "", p[2]); s += p[1] * 60 + p[2] }
        printf "%.0f", s * hz }' "$WORK/times"
}

# Resets the peak RSS of PID (and its children) so VmHWM measures one scenario.
reset_peak_rss() {
    local pid
    for pid in "$1" $(pgrep -P "$1" 2>/dev/null || true); do
        echo 5 >"/proc/$pid/clear_refs" 2>/dev/null || true
    done
}

# Sum of VmHWM over PID and its children, in MiB.
peak_rss_mib() {
    local pid kb total=0
    for pid in "$1" $(pgrep -P "$1" 2>/dev/null || true); do
        kb=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
        total=$((total + ${kb:-0}))
    done
    awk -v kb="$total" 'BEGIN { printf "%.0f", kb / 1024 }'
}

# One field of /proc/PID/status in KiB (VmRSS, VmHWM), for the process alone.
proc_kib() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; } # PID FIELD
