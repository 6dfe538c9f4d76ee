-- Shared by the wrk scripts: reads BENCH_TOKENS ("rider_id<TAB>token" per line, from
-- `trip-history token --role rider --riders 1-N`) once per wrk thread.
local common = {}

function common.load_tokens()
  local path = os.getenv("BENCH_TOKENS") or error("set BENCH_TOKENS")
  local tokens, riders = {}, {}
  for line in io.lines(path) do
    local rider, token = line:match("^(%d+)\t(%S+)$")
    if rider then
      tokens[tonumber(rider)] = token
      riders[#riders + 1] = tonumber(rider)
    end
  end
  return tokens, riders
end

-- Riders 1..BENCH_RIDERS are the seeded population; the deep rider is excluded from random picks.
function common.rider_count()
  return tonumber(os.getenv("BENCH_RIDERS") or error("set BENCH_RIDERS"))
end

function common.seed_random()
  -- Each wrk thread gets its own stream; the address of a fresh table differs per Lua state.
  math.randomseed(os.time() + tonumber(tostring({}):match("0x(%x+)") or "0", 16) % 100000)
end

-- BENCH_FORWARDED_FOR, when set, is sent as every request's X-Forwarded-For: with TRIP_HISTORY_TRUSTED_FORWARDERS
-- on one side of a compare run (BENCH_CANDIDATE_ENV), the A/B measures reading the forwarded client.
local forwarded_for = os.getenv("BENCH_FORWARDED_FOR")

function common.get(path, token, extra)
  local headers = { ["Authorization"] = "Bearer " .. token }
  if forwarded_for and forwarded_for ~= "" then headers["X-Forwarded-For"] = forwarded_for end
  if extra then for k, v in pairs(extra) do headers[k] = v end end
  return wrk.format("GET", path, headers)
end

local languages = { "en-US", "en-US", "en-GB", "fr-FR", "de-DE", "ja-JP", "es-ES" }
function common.language()
  return languages[math.random(#languages)]
end

return common
