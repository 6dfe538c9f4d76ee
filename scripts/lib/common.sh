# shellcheck shell=bash
# Helpers shared by scripts/run, scripts/test and the bench scripts. Source it; it runs nothing itself.

th_log() { printf '==> %s\n' "$*" >&2; }
th_warn() { printf 'warning: %s\n' "$*" >&2; }
th_die() {
    printf 'error: %s\n' "$*" >&2
    exit 1
}

# Puts the toolchain from /opt/swift on PATH when no `swift` is found, as on the CI machines.
th_ensure_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        if [[ -x /opt/swift/usr/bin/swift ]]; then
            PATH="/opt/swift/usr/bin:$PATH"
            export PATH
        else
            th_die "swift not found on PATH (install Swift 6, see https://www.swift.org/install/)"
        fi
    fi
}

# Prints N random bytes as 2N lowercase hex characters, without depending on openssl or python.
th_random_hex() {
    local bytes=${1:-32}
    od -An -tx1 -N"$bytes" /dev/urandom | tr -d ' \n'
}
