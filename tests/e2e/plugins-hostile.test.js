'use strict'
// Issue 19 acceptance 4: hostile plugins, each in its own test (its own
// server), next to a well-behaved plugin (/ping, and a chat counter) that
// must keep working: an endless loop in a chat handler (stopped within its
// budget, even when it tries to catch the stop with pcall or a coroutine;
// TPS stays 20; the chat line still arrives), os.execute / io.open and the
// other ways out (not there, with a clear error), allocating without end
// (stopped at the plugin's heap cap; the server's memory stays bounded),
// and an error on every move (disabled after 100 errors within a minute).
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const h = require('./helpers')
const mp = require('./mp-helpers')
const pu = require('./persist-util')
const ph = require('./plugin-helpers')

after(ph.cleanup)

const GOOD = `
local seen = 0
mc.on("chat", function(ev) seen = seen + 1 end)
mc.command{ name = "ping", run = function(ctx) return "pong " .. seen end }
`

/** A server with the good plugin and `hostile`, one bot; returns { srv, bot, rec }. */
async function setup (name, hostile) {
  const srv = await ph.startWithPlugins({ name, plugins: { good: { 'init.lua': GOOD }, [name]: hostile } })
  const bot = h.makeBot(srv.port, 'Alice')
  const rec = mp.recorder(bot)
  await bot.waitSpawn(15000)
  return { srv, bot, rec }
}

async function stillGood (srv, bot, rec, chats) {
  const since = rec.mark()
  bot.bot.chat('/ping')
  await rec.waitChat(new RegExp(`^pong ${chats}$`), { since, message: 'the good plugin answers /ping' })
  const from = srv.output().length
  srv.send('list')
  await srv.waitOutput(/There are 1 of a max of 20 players online: Alice/, { from })
}

async function finish (srv, bot) {
  await bot.quit()
  const info = await srv.stop(10000)
  assert.equal(info.code, 0, `clean exit\n${srv.describe()}`)
  pu.assertNoSanitizerReport(assert, srv)
}

test('an endless loop in a chat handler is stopped within its budget; TPS stays 20 and the chat still arrives', { timeout: 40000 }, async () => {
  const { srv, bot, rec } = await setup('looper', {
    'init.lua': `
mc.on("chat", function(ev)
  if ev.message == "spin" then while true do end end
  if ev.message == "catch" then while true do pcall(function() while true do end end) end end
  if ev.message == "xcatch" then while true do xpcall(function() while true do end end, function(e) return e end) end end
  if ev.message == "co" then
    local co = coroutine.create(function() while true do end end)
    while true do coroutine.resume(co) end
  end
end)
`
  })
  const since = rec.mark()
  const from = srv.output().length
  for (const m of ['spin', 'catch', 'xcatch', 'co']) bot.bot.chat(m)
  for (const m of ['spin', 'catch', 'xcatch', 'co']) await rec.waitChat(new RegExp(`^<Alice> ${m}$`), { since })
  await srv.waitOutput(/(\[looper\] error in chat handler: .*ran past its time budget of 5 ms and was stopped[\s\S]*){4}/, { from })
  assert.match(srv.output().slice(from), /\[looper\]   plugins\/looper\/init\.lua:\d+: in function/, 'a traceback names the line')
  // Each call was stopped at its 5 ms budget: the plugin's average call time says so.
  let f2 = srv.output().length
  srv.send('plugins info looper')
  const info = await srv.waitOutput(/(\d+) handler calls, ([\d.]+) us each/, { from: f2 })
  assert.ok(Number(info[2]) < 60000, `calls stopped near the budget (average ${info[2]} us)`)
  await h.sleep(5200) // a whole 5 s window after the loops
  f2 = srv.output().length
  srv.send('mspt')
  const tps = await srv.waitOutput(/TPS last 5 s: ([\d.]+)/, { from: f2 })
  assert.ok(Number(tps[1]) >= 19.5, `TPS ${tps[1]}`)
  await stillGood(srv, bot, rec, 4)
  await finish(srv, bot)
})

test('os.execute, io.open, require of C modules, bytecode and finalizers are not available, with clear errors', { timeout: 30000 }, async () => {
  const { srv, bot, rec } = await setup('escaper', {
    'init.lua': `
local tries = {
  execute = function() return os.execute("touch /tmp/mcserv-plugin-escaped") end,
  open = function() return io.open("/etc/passwd") end,
  popen = function() return io.popen("id") end,
  require = function() return require("socket.core") end,
  getenv = function() return os.getenv("HOME") end,
  bytecode = function() local f, e = load("\\27LuaT\\0") if not f then error(e) end end,
  gc = function() return setmetatable({}, { __gc = function() end }) end,
  debug = function() return debug.sethook() end,
}
for name, f in pairs(tries) do
  local ok, err = pcall(f)
  mc.log("try " .. name .. ": " .. (ok and "WORKED" or tostring(err)))
end
mc.command{ name = "escape", run = function() os.execute("touch /tmp/mcserv-plugin-escaped") end }
`
  })
  const out = srv.output()
  assert.match(out, /try execute: .*os\.execute is not available to plugins/)
  assert.match(out, /try open: .*io\.open is not available to plugins/)
  assert.match(out, /try popen: .*io\.popen is not available to plugins/)
  assert.match(out, /try require: .*require: no socket\.core\.lua in plugins\/escaper/)
  assert.match(out, /try getenv: .*os\.getenv is not available to plugins/)
  assert.match(out, /try bytecode: .*attempt to load a binary chunk/)
  assert.match(out, /try gc: .*__gc \(finalizers\) is not available to plugins/)
  assert.match(out, /try debug: .*debug\.sethook is not available to plugins/)
  assert.doesNotMatch(out, /WORKED/)
  const since = rec.mark()
  const from = srv.output().length
  bot.bot.chat('/escape')
  await rec.waitChat(/^An unexpected error occurred trying to execute that command$/, { since })
  await srv.waitOutput(/\[escaper\] error in command \/escape: .*os\.execute is not available to plugins/, { from })
  assert.ok(!fs.existsSync('/tmp/mcserv-plugin-escaped'), 'no file was made')
  await stillGood(srv, bot, rec, 0)
  await finish(srv, bot)
})

test('allocating without end is stopped at the plugin\'s heap cap; the server\'s memory stays bounded', { timeout: 40000 }, async () => {
  const { srv, bot, rec } = await setup('hog', {
    'plugin.json': { memory_mb: 16 },
    'init.lua': `
mc.command{ name = "hog", run = function()
  local t = {}
  while true do t[#t + 1] = string.rep("x" .. #t, 1 << 19) end
end }
hoard = {}
mc.command{ name = "keep", run = function()
  while true do hoard[#hoard + 1] = { string.rep("y" .. #hoard, 1 << 19) } end
end }
`
  })
  const rss0 = h.rssKiB(srv.pid)
  for (const cmd of ['/hog', '/keep', '/keep', '/hog']) {
    const since = rec.mark()
    const from = srv.output().length
    bot.bot.chat(cmd)
    await rec.waitChat(/^An unexpected error occurred trying to execute that command$/, { since })
    await srv.waitOutput(/\[hog\] error in command \/(hog|keep): not enough memory \(the plugin's heap is capped at 16 MiB\)/, { from })
  }
  const from = srv.output().length
  srv.send('plugins info hog')
  const mem = await srv.waitOutput(/Memory ([\d.]+) MiB of 16 MiB \(peak ([\d.]+)\)/, { from })
  assert.ok(Number(mem[2]) <= 17, `the heap never passed its cap (peak ${mem[2]} MiB)`)
  const rss1 = h.rssKiB(srv.pid)
  assert.ok(rss1 - rss0 < 100 * 1024, `RSS grew by ${rss1 - rss0} KiB`)
  await stillGood(srv, bot, rec, 0)
  await finish(srv, bot)
})

test('a plugin erroring on every move is disabled after 100 errors within a minute', { timeout: 40000 }, async () => {
  const { srv, bot, rec } = await setup('mover', {
    'init.lua': `
mc.on("move", function(ev) error("boom at " .. math.floor(ev.x)) end)
mc.command{ name = "moverping", run = function() return "mover alive" end }
`
  })
  // Jumping, the bot sends its position every tick: 20 move events a second.
  bot.bot.setControlState('jump', true)
  await srv.waitOutput(/\[mover\] disabled: 100 errors within a minute; `plugins reload mover` enables it again/, { timeout: 20000 })
  const out = srv.output()
  assert.match(out, /\[mover\] error in move handler: plugins\/mover\/init\.lua:2: boom at -?\d+/)
  assert.match(out, /\[mover\]   plugins\/mover\/init\.lua:2: in function/)
  const errors = (out.match(/\[mover\] error in move handler/g) || []).length
  assert.equal(errors, 100, 'exactly the threshold, then no more calls')
  await h.sleep(1000)
  assert.equal((srv.output().match(/\[mover\] error in move handler/g) || []).length, 100, 'no calls after disabling')
  bot.bot.setControlState('jump', false)
  // Its command is gone from the tree: an unknown command now.
  const since = rec.mark()
  bot.bot.chat('/moverping')
  await rec.waitChat(/Unknown or incomplete command/, { since })
  let from = srv.output().length
  srv.send('plugins')
  await srv.waitOutput(/Plugins \(2\): good, mover \(disabled\)/, { from })
  await stillGood(srv, bot, rec, 0)
  // `plugins reload mover` enables it again (and it errors again).
  from = srv.output().length
  srv.send('plugins reload mover')
  await srv.waitOutput(/Plugins: mover\n[\s\S]*\[mover\] error in move handler/, { from })
  await finish(srv, bot)
})

h.finalClientErrorCheck(test)
