-- POST /v1/trips with the service token (BENCH_SERVICE_TOKEN) and a unique Idempotency-Key per request:
-- the ingestion rate. With BENCH_WRITE=adjustment it posts adjustments instead: a fare correction of +1 minor
-- unit on a (rider, trip) pair of BENCH_TRIP_IDS, so every one passes the rules whatever the trip (a tip would
-- be refused on the seed's trips older than the tip window). Keys carry BENCH_RUN_ID, a nonce of this wrk invocation (the warm-up and the measured
-- run must not share keys: a reused key with another body is a 422) and the thread's own number.
-- Optional, for the overload scenarios: BENCH_PACE_MS waits that long after each response before the next
-- request, and BENCH_LATENCY_FILE.<thread number> receives every response's status and latency ("201 12.345",
-- ms) from that wrk thread, exact when each thread has one connection (-t N -c N), since a thread's requests
-- and responses then alternate. Each thread writes its own file (flushed when wrk exits): copying large tables
-- between Lua states in done() crashes wrk.
package.path = (os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/?.lua;" .. package.path
local common = require("common")

local counter = 0
local riders, token, run_id
-- A global, not a local: setup() runs in the main Lua state and thread:set() writes globals of each thread's state.
thread_number = 0
local threads_created = 0

local threads = {}
-- Per-thread count of responses by status, summed in done() into BENCH_STATUS_FILE ("201=1234 503=5").
statuses = {}

invocation = ""
local invocation_nonce

function setup(thread)
  if not invocation_nonce then
    common.seed_random()
    invocation_nonce = string.format("%x%06x", os.time(), math.random(0, 0xffffff))
  end
  threads_created = threads_created + 1
  thread:set("thread_number", threads_created)
  thread:set("invocation", invocation_nonce)
  threads[#threads + 1] = thread
end

local pace = tonumber(os.getenv("BENCH_PACE_MS") or "")
local latency_file = os.getenv("BENCH_LATENCY_FILE")
local ffi = require("ffi")
ffi.cdef[[
  typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
  int clock_gettime(int clock, bench_timespec *time);
]]
local now_buffer = ffi.new("bench_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, now_buffer) -- CLOCK_MONOTONIC
  return tonumber(now_buffer.tv_sec) * 1000 + tonumber(now_buffer.tv_nsec) / 1e6
end
local sent_at = nil
local latency_out = nil

-- Defined only when pacing, so the unpaced scenarios send the next request at once as before.
if pace then
  function delay()
    return pace
  end
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
  if latency_file and sent_at then
    if not latency_out then
      latency_out = io.open(latency_file .. "." .. thread_number, "w")
      latency_out:setvbuf("full", 65536)
    end
    latency_out:write(string.format("%d %.3f\n", status, now_ms() - sent_at))
  end
end

function done(summary, latency, requests)
  local path = os.getenv("BENCH_STATUS_FILE")
  if not path then return end
  local total, keys = {}, {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses") or {}) do
      if not total[status] then keys[#keys + 1] = status end
      total[status] = (total[status] or 0) + count
    end
  end
  table.sort(keys)
  local parts = {}
  for _, status in ipairs(keys) do parts[#parts + 1] = status .. "=" .. total[status] end
  local file = io.open(path, "w")
  if file then
    file:write(table.concat(parts, " "))
    file:close()
  end
end

local adjustments = os.getenv("BENCH_WRITE") == "adjustment"
local trip_pairs = {}

function init(args)
  common.seed_random()
  riders = common.rider_count()
  if adjustments then
    for line in io.lines(os.getenv("BENCH_TRIP_IDS") or error("set BENCH_TRIP_IDS")) do
      local rider, id = line:match("^(%d+)\t(%d+)$")
      if rider then trip_pairs[#trip_pairs + 1] = { rider, id } end
    end
  end
  token = os.getenv("BENCH_SERVICE_TOKEN") or error("set BENCH_SERVICE_TOKEN")
  run_id = os.getenv("BENCH_RUN_ID") or tostring(os.time())
end

local body_format = [[{"rider_id":"%d","status":"completed","product":"UberX","city":"Paris",]]
  .. [["time_zone":"Europe/Paris","requested_at":"2026-10-%02dT%02d:%02d:00Z","started_at":"2026-10-%02dT%02d:%02d:30Z",]]
  .. [["completed_at":"2026-10-%02dT%02d:%02d:45Z","pickup":{"lat":48.8566,"lon":2.3522,"address":"1 Rue de Rivoli, Paris"},]]
  .. [["dropoff":{"lat":48.8738,"lon":2.295,"address":"Place Charles de Gaulle, Paris"},"distance_m":5200,]]
  .. [["duration_s":1620,"fare":{"amount_minor":1850,"currency":"EUR"}}]]

local adjustment_body = [[{"kind":"fare_correction","amount_minor":1,"reason":"Toll added after the ride"}]]

function request()
  counter = counter + 1
  if adjustments then
    local pick = trip_pairs[math.random(#trip_pairs)]
    sent_at = now_ms()
    return wrk.format("POST", "/v1/riders/" .. pick[1] .. "/trips/" .. pick[2] .. "/adjustments", {
      ["Authorization"] = "Bearer " .. token,
      ["Content-Type"] = "application/json",
      ["Idempotency-Key"] = string.format("bench-adj-%s-%s-%d-%d", run_id, invocation, thread_number, counter),
    }, adjustment_body)
  end
  local day, hour, minute = math.random(1, 28), math.random(0, 22), math.random(0, 59)
  local body = string.format(body_format, math.random(riders), day, hour, minute, day, hour, minute, day, hour + 1, minute)
  local headers = {
    ["Authorization"] = "Bearer " .. token,
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = string.format("bench-%s-%s-%d-%d", run_id, invocation, thread_number, counter),
  }
  sent_at = now_ms()
  return wrk.format("POST", "/v1/trips", headers, body)
end
