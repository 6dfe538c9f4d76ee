-- One trip's detail screen: GET /v1/riders/{rider}/trips/{id} for (rider, id) pairs sampled from the
-- database into BENCH_TRIP_IDS ("rider_id<TAB>trip_id" per line).
package.path = (os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/?.lua;" .. package.path
local common = require("common")
local tokens
local pairs_ = {}

function init(args)
  common.seed_random()
  tokens = common.load_tokens()
  for line in io.lines(os.getenv("BENCH_TRIP_IDS") or error("set BENCH_TRIP_IDS")) do
    local rider, id = line:match("^(%d+)\t(%d+)$")
    if rider and tokens[tonumber(rider)] then pairs_[#pairs_ + 1] = { tonumber(rider), id } end
  end
end

function request()
  local pick = pairs_[math.random(#pairs_)]
  return common.get("/v1/riders/" .. pick[1] .. "/trips/" .. pick[2], tokens[pick[1]], { ["Accept-Language"] = common.language() })
end
