# shellcheck shell=bash
# The baselines (full run only), measured in the same run on the same machine as the service: pgbench running
# the repository's exact statements (what PostgreSQL alone serves), nginx serving the deep rider's page 1 from
# a file and a trivial Hummingbird route serving it from memory (what HTTP alone, and Hummingbird alone, cost):
# once with the body alone, once with the service's response head too and the service's request (its token),
# so that the bytes on the wire both ways are the cached 200's.

# Runs the five baseline scenarios; needs the deep rider's walk (WORK/page.json, DEEP_AT, DEEP_ID).
run_baselines() {
    pgbench_setup
    pgbench_scenario "pgbench first page (c=$PIPELINED)" "${PGBENCH_FIRST_PAGE[@]}"
    pgbench_scenario "pgbench page $DEEP_PAGE (c=$PIPELINED)" -f "$ROOT/bench/pgbench/deep_page.sql" \
        -D "deep_rider=$DEEP_RIDER" -D "at=$DEEP_AT" -D "id=$DEEP_ID"

    start_nginx
    scenario "nginx static file, same bytes" "$NGINX_PID" -- "http://127.0.0.1:$NGINX_PORT/page"
    stop_nginx

    start_static
    scenario "trivial Hummingbird route, same bytes" "$STATIC_PID" -- "http://127.0.0.1:$STATIC_PORT/page"
    scenario "trivial Hummingbird route, same response and request" "$STATIC_PID" -- "${AUTH[@]}" "http://127.0.0.1:$STATIC_PORT/response"
    stop_static
}
