-- welcome: greets players as they join, and gives everyone /spawn,
-- /sethome and /home. Homes are kept in this plugin's storage
-- (plugins/welcome/data/storage.json), one per player UUID, so they
-- survive reloads and restarts.

local cfg = plugin.config

local function fill(text, p)
  return (text:gsub("{name}", p.name))
end

mc.on("join", function(ev)
  local p = ev.player
  p:send({ text = fill(cfg.message or "Welcome, {name}!", p), color = "gold" })
  if cfg.title then
    p:title(fill(cfg.title, p), cfg.subtitle and fill(cfg.subtitle, p) or nil, 10, 60, 20)
  end
end)

mc.command{
  name = "spawn",
  description = "Teleports you to the world spawn",
  run = function(ctx)
    if not ctx.player then return "Only players can go to the spawn" end
    local x, y, z = mc.spawn()
    ctx.player:teleport(x, y, z)
    return "Teleported to the spawn"
  end,
}

mc.command{
  name = "sethome",
  description = "Remembers where you stand as your home",
  run = function(ctx)
    local p = ctx.player
    if not p then return "Only players have a home" end
    local x, y, z, yaw, pitch = p:pos()
    plugin.storage.set("home:" .. p.uuid, { x = x, y = y, z = z, yaw = yaw, pitch = pitch })
    return string.format("Home set at %.1f, %.1f, %.1f", x, y, z)
  end,
}

mc.command{
  name = "home",
  description = "Teleports you to your home",
  run = function(ctx)
    local p = ctx.player
    if not p then return "Only players have a home" end
    local h = plugin.storage.get("home:" .. p.uuid)
    if not h then
      ctx.fail("You have no home yet: use /sethome")
      return
    end
    p:teleport(h.x, h.y, h.z, h.yaw, h.pitch)
    return "Welcome home"
  end,
}

mc.log("ready")
