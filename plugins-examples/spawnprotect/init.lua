-- spawnprotect: within `radius` blocks (a square, like vanilla's
-- spawn-protection) of the centre, only players with the permission
-- spawnprotect.bypass may break or place blocks. Operators of level 2 and
-- up have it by default; `plugins grant <player> spawnprotect.bypass`
-- gives it to anyone, `plugins revoke` takes it back. The centre is the
-- world spawn unless config.json sets "center": {"x": .., "z": ..}.

local cfg = plugin.config
local radius = tonumber(cfg.radius) or 16

mc.permission("spawnprotect.bypass", 2)

local function center()
  if cfg.center then return cfg.center.x, cfg.center.z end
  local x, _, z = mc.spawn()
  return math.floor(x), math.floor(z)
end

local function protected(ev)
  local cx, cz = center()
  if math.abs(ev.x - cx) > radius or math.abs(ev.z - cz) > radius then return false end
  return not ev.player:has_permission("spawnprotect.bypass")
end

local function guard(ev)
  if protected(ev) then
    ev:cancel()
    ev.player:action_bar({ text = cfg.message or "The spawn is protected", color = "red" })
  end
end

mc.on("block_break", guard)
mc.on("block_place", guard)

mc.command{
  name = "spawnprotect",
  description = "Says whether you may build here",
  run = function(ctx)
    local cx, cz = center()
    local p = ctx.player
    local msg = string.format("Protected: %d blocks around %d, %d", radius, cx, cz)
    if p then
      msg = msg .. (p:has_permission("spawnprotect.bypass") and " (you may build)" or " (you may not build)")
    end
    return msg
  end,
}
