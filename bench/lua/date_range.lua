-- A random rider's first page filtered to a random three-month window of the seeded two years, with
-- date-only bounds in a time zone: the app's date filter.
package.path = (os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/?.lua;" .. package.path
local common = require("common")
local tokens, riders
local zones = { "Europe/Paris", "America/New_York", "Asia/Tokyo", "UTC" }

function init(args)
  common.seed_random()
  tokens = common.load_tokens()
  riders = common.rider_count()
end

function request()
  local rider = math.random(riders)
  -- The seeded window is 2024-11 .. 2026-10.
  local start = math.random(0, 20)
  local y1, m1 = 2024 + math.floor((10 + start) / 12), (10 + start) % 12 + 1
  local y2, m2 = 2024 + math.floor((13 + start) / 12), (13 + start) % 12 + 1
  local path = string.format("/v1/riders/%d/trips?limit=20&from=%04d-%02d-01&to=%04d-%02d-01&tz=%s",
    rider, y1, m1, y2, m2, zones[math.random(#zones)])
  return common.get(path, tokens[rider])
end
