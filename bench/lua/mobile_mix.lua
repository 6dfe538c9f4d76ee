-- Mixed mobile traffic, by weight: 45% first page (opening the screen, pull-to-refresh), 25% next page
-- (scrolling: the next_cursor of a first page this thread saw), 15% trip detail, 10% date-filtered page,
-- 5% a second page of 50. Accept-Language varies. Needs BENCH_TOKENS and BENCH_TRIP_IDS.
package.path = (os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/?.lua;" .. package.path
local common = require("common")
local tokens, riders
local trip_pairs = {}
local cursors = {}
local cursor_slots = 256
local cursor_next = 1

function init(args)
  common.seed_random()
  tokens = common.load_tokens()
  riders = common.rider_count()
  for line in io.lines(os.getenv("BENCH_TRIP_IDS") or error("set BENCH_TRIP_IDS")) do
    local rider, id = line:match("^(%d+)\t(%d+)$")
    if rider and tokens[tonumber(rider)] then trip_pairs[#trip_pairs + 1] = { tonumber(rider), id } end
  end
end

local function first_page(limit)
  local rider = math.random(riders)
  return common.get("/v1/riders/" .. rider .. "/trips?limit=" .. limit, tokens[rider], { ["Accept-Language"] = common.language() })
end

function request()
  local roll = math.random(100)
  if roll <= 45 then
    return first_page(20)
  elseif roll <= 70 and #cursors > 0 then
    local pick = cursors[math.random(#cursors)]
    return common.get("/v1/riders/" .. pick[1] .. "/trips?limit=20&cursor=" .. pick[2], tokens[pick[1]])
  elseif roll <= 85 then
    local pick = trip_pairs[math.random(#trip_pairs)]
    return common.get("/v1/riders/" .. pick[1] .. "/trips/" .. pick[2], tokens[pick[1]], { ["Accept-Language"] = common.language() })
  elseif roll <= 95 then
    local rider = math.random(riders)
    local month = math.random(1, 9)
    return common.get(string.format("/v1/riders/%d/trips?limit=20&from=2026-%02d-01&to=2026-%02d-01&tz=Europe/Paris",
      rider, month, month + 1), tokens[rider])
  else
    return first_page(50)
  end
end

-- Keeps the latest next_cursors of limit-20 unfiltered pages, to scroll from.
function response(status, headers, body)
  if status ~= 200 or not body then return end
  local cursor = body:match('"next_cursor":"([^"]+)"')
  local rider = body:match('"rider_id":"(%d+)"')
  if cursor and rider and body:find('"limit":20', 1, true) and body:find('"from":null', 1, true) then
    cursors[cursor_next] = { tonumber(rider), cursor }
    cursor_next = cursor_next % cursor_slots + 1
  end
end
