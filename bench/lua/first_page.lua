-- First page (limit 20) of a random seeded rider, as each rider's own token: the app opening "Your trips".
package.path = (os.getenv("BENCH_LUA_DIR") or "bench/lua") .. "/?.lua;" .. package.path
local common = require("common")
local tokens, riders

function init(args)
  common.seed_random()
  tokens = common.load_tokens()
  riders = common.rider_count()
end

function request()
  local rider = math.random(riders)
  return common.get("/v1/riders/" .. rider .. "/trips?limit=20", tokens[rider])
end
