-- A light prober: one request every BENCH_PACE_MS (default 50) per connection, e.g. GET /healthz while
-- another wrk saturates the service, to see what a liveness probe waits.
function delay()
  return tonumber(os.getenv("BENCH_PACE_MS") or "50")
end
