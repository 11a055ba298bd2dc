-- walk_to_point.lua — every bot walks to a point near the spawn, looks
-- around, and stays there. Targets spread the bots on a ring of radius 8
-- around (0.5, 0.5) so they do not all stand on the same block.
--   build/mcbench --script bench/scripts/walk_to_point.lua --bots 100 --duration 20
return function(bot)
  local n = mcbench.bots
  local a = 2 * math.pi * bot:index() / n
  local x, z = 0.5 + 8 * math.cos(a), 0.5 + 8 * math.sin(a)
  bot:move_to(x, nil, z)              -- walking speed; yields until arrived
  bot:look(math.deg(a) + 90, 0)       -- face along the ring
  bot:log(string.format("arrived at %.1f %.1f", x, z))
end
