-- build.lua — dig and place near the spawn: give the bot a stack of stone
-- (creative servers accept Set Creative Mode Slot), hold it, place a block
-- next to each bot's spot and dig it again, every 2 s. The server decides
-- whether anything changes; mcbench only sends what a client would.
--   build/mcbench --script bench/scripts/build.lua --bots 50 --duration 30
local STONE = 1 -- item id of minecraft:stone in 1.20.1
return function(bot)
  bot:set_slot(36, STONE, 64) -- hotbar slot 0 in the player inventory window
  bot:hold(0)
  local x, y, z = bot:pos()
  local bx, by, bz = math.floor(x) + 1, math.floor(y) - 1, math.floor(z)
  while true do
    bot:place(bx, by, bz, 1) -- on top of the ground block: the block at by + 1
    bot:wait(1)
    bot:dig(bx, by + 1, bz)
    bot:wait(1)
  end
end
