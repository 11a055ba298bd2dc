-- parkour: a tiny lobby game. An operator builds the course where they
-- stand with `/parkour setup` (a gold start pad, a few jumps, an emerald
-- finish pad; the positions go to storage). Stepping on the start pad
-- starts the timer (shown on the action bar), reaching the finish stops it;
-- each player's best time is kept in storage, `/parkour top` lists the ten
-- best, `/parkour reset` (level 2) clears them.

local runs = {}        -- player uuid -> tick the run started
local course = plugin.storage.get("course")

local function key(x, y, z) return x .. "," .. y .. "," .. z end

local function seconds(ticks) return ticks / 20 end

local function best_times()
  return plugin.storage.get("best") or {}
end

mc.on("move", function(ev)
  if not course then return end
  local under = key(math.floor(ev.x), math.floor(ev.y) - 1, math.floor(ev.z))
  local p = ev.player
  if under == course.start then
    if not runs[p.uuid] then p:action_bar("Go!") end
    runs[p.uuid] = mc.tick()
  elseif under == course.finish and runs[p.uuid] then
    local t = seconds(mc.tick() - runs[p.uuid])
    runs[p.uuid] = nil
    local best = best_times()
    local old = best[p.uuid]
    if not old or t < old.time then
      best[p.uuid] = { name = p.name, time = t }
      plugin.storage.set("best", best)
      p:send({ text = string.format("Finished in %.2f s: a personal best!", t), color = "green" })
    else
      p:send(string.format("Finished in %.2f s (best %.2f s)", t, old.time))
    end
    mc.log(string.format("%s finished the course in %.2f s", p.name, t))
  end
end)

mc.on("leave", function(ev) runs[ev.player.uuid] = nil end)

-- The running time on the action bar, once a second.
mc.every(20, function()
  for _, p in ipairs(mc.players()) do
    local start = runs[p.uuid]
    if start then p:action_bar(string.format("%.1f s", seconds(mc.tick() - start))) end
  end
end)

mc.command{
  name = "parkour", args = { "setup" }, level = 2,
  run = function(ctx)
    local p = ctx.player
    if not p then return "Stand where the course should start" end
    local x, y, z = p:pos()
    x, y, z = math.floor(x), math.floor(y) - 1, math.floor(z)
    mc.set_block(x, y, z, "gold_block")
    for i = 1, 3 do mc.set_block(x + 2 * i, y, z, "oak_planks") end
    mc.set_block(x + 8, y, z, "emerald_block")
    course = { start = key(x, y, z), finish = key(x + 8, y, z) }
    plugin.storage.set("course", course)
    return "Course built: start on the gold block, finish on the emerald block"
  end,
}

mc.command{
  name = "parkour", args = { "top" },
  run = function(ctx)
    local list = {}
    for _, e in pairs(best_times()) do list[#list + 1] = e end
    table.sort(list, function(a, b) return a.time < b.time end)
    if #list == 0 then return "No times yet" end
    for i = 1, math.min(10, #list) do
      ctx.reply(string.format("%d. %s %.2f s", i, list[i].name, list[i].time))
    end
  end,
}

mc.command{
  name = "parkour", args = { "reset" }, level = 2,
  run = function(ctx)
    plugin.storage.delete("best")
    return "Leaderboard cleared"
  end,
}
