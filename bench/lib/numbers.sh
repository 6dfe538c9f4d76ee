# shellcheck shell=bash
# Arithmetic on measured figures: clocks, unit conversions, medians, ratios and verdicts against targets.

# The current time in seconds with nanoseconds, for elapsed_since.
now_s() { date +%s.%N; }

# Seconds since a now_s value, with two decimals.
elapsed_since() { awk -v a="$1" -v b="$(now_s)" 'BEGIN { printf "%.2f", b - a }'; }

# Milliseconds since an $EPOCHREALTIME value, with two decimals.
ms_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", (b - a) * 1000 }'; }

# Seconds since an $EPOCHREALTIME value, with three decimals.
seconds_since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }'; }

# wrk's latency with its unit (us, ms, s, m) in milliseconds.
to_ms() {
    awk -v v="$1" 'BEGIN {
        n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
        if (u == "us") n /= 1000; else if (u == "s") n *= 1000; else if (u == "m") n *= 60000
        printf "%.2f", n }'
}

# KiB in MiB, with one decimal.
mib() { awk -v kb="$1" 'BEGIN { printf "%.1f", kb / 1024 }'; }

# COUNT items in SECONDS as a rate per second, rounded.
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.0f", n / s }'; }

# CPU ms per request (the same figure as CPU-s per 1000 requests) of TICKS spent on REQUESTS; prints
# UNDEFINED (default "-") when there are no ticks or no requests.
cpu_ms_per_request() { # TICKS REQUESTS [UNDEFINED]
    awk -v t="$1" -v n="$2" -v hz="$CLK_TCK" -v none="${3--}" \
        'BEGIN { if (t == "" || n + 0 <= 0) printf "%s", none; else printf "%.3f", t / hz / n * 1000 }'
}

# The median of the numbers given as arguments.
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

# A / B with two decimals, or n/a when either is missing or B is zero; for showing.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "n/a"; else printf "%.2f", a / b }'; }

# A / B unrounded (0.4988 prints as 0.50 but misses >= 0.5), for judging; empty when undefined.
exact_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && b + 0 != 0) printf "%.6f", a / b }'; }

# Whether RATIO (unrounded) meets OP TARGET: met, missed, or n/a.
meets() {
    awk -v r="$1" -v op="$2" -v t="$3" 'BEGIN { if (r == "" || r == "n/a") { print "n/a"; exit }
        ok = (op == ">=") ? r >= t : r <= t; print ok ? "met" : "missed" }'
}

# Whether A / B meets OP TARGET (met, missed, n/a), judged on the unrounded ratio.
verdict() { meets "$(exact_ratio "$1" "$2")" "$3" "$4"; } # A B OP TARGET

# paired_ratios "A1 A2 ..." "B1 B2 ...": each round's A / B. Sets PAIRED_MEDIAN (the median of the unrounded
# ratios, for judging) and PAIRED_SHOWN (each round's ratio with two decimals). Pairing cancels the drift of a
# shared machine between rounds: within a round the two runs are seconds apart.
# shellcheck disable=SC2034 # PAIRED_* are read by the callers.
paired_ratios() {
    local a b exact=() shown=() i
    read -r -a a <<<"$1"
    read -r -a b <<<"$2"
    for i in "${!a[@]}"; do
        exact+=("$(exact_ratio "${a[$i]}" "${b[$i]:-}")")
        shown+=("$(ratio "${a[$i]}" "${b[$i]:-}")")
    done
    PAIRED_MEDIAN=$(median "${exact[@]}")
    PAIRED_SHOWN="${shown[*]}"
}
