-- leave.lua — each bot stays a random 5..15 s after joining, then leaves
-- (a clean disconnect, counted as "left", not as a failure).
--   build/mcbench --script bench/scripts/leave.lua --bots 100 --duration 20
return function(bot)
  bot:wait(5 + math.random() * 10)
  bot:disconnect()
end
