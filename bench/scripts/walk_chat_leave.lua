-- walk_chat_leave.lua — the end-to-end example: walk to a point, say
-- something there, wait a moment, leave. The e2e test runs it with one bot
-- and checks, from a mineflayer observer, that the chat line arrives.
--   build/mcbench --script bench/scripts/walk_chat_leave.lua --bots 1 --duration 10
return function(bot)
  bot:move_to(4.5, nil, 4.5)
  local x, y, z = bot:pos()
  bot:chat(string.format("%s reached %.1f %.1f %.1f", bot:name(), x, y, z))
  bot:wait(1)
  bot:disconnect()
end
