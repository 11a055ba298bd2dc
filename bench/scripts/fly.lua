-- fly.lua — a hostile flyer: every bot flies in a straight line away from
-- where it joined, at 180 m/s (9 blocks per 50 ms position packet, just
-- under the server's 10-blocks-per-tick movement check), at y 200 through
-- terrain nobody has generated, for mcbench.duration seconds, then leaves.
-- Bots spread over evenly spaced headings so their windows never overlap.
--   build/mcbench --bots 3 --rate 10 --duration 30 --view-distance 10 \
--     --script bench/scripts/fly.lua
-- (bench/flyers.js runs it with a newcomer and the server's RSS; issue 23.)
local SPEED = 180
return function(bot)
  local x, _, z = bot:pos()
  local a = 2 * math.pi * bot:index() / mcbench.bots
  local d = SPEED * mcbench.duration
  local t0 = bot:now()
  bot:move_to(x + d * math.cos(a), 200, z + d * math.sin(a), SPEED)
  local x1, _, z1 = bot:pos()
  bot:log(string.format("flew %.0f blocks in %.1f s", math.sqrt((x1 - x) ^ 2 + (z1 - z) ^ 2), bot:now() - t0))
  bot:disconnect()
end
