-- chat.lua — every bot says hello, then chats every 10 s (with a random
-- offset so the bots do not all talk at once) until the run ends.
--   build/mcbench --script bench/scripts/chat.lua --bots 200 --duration 60
return function(bot)
  bot:wait(math.random() * 10)
  bot:chat("hello from " .. bot:name())
  local i = 0
  while true do
    bot:wait(10)
    i = i + 1
    bot:chat(string.format("%s message %d", bot:name(), i))
  end
end
