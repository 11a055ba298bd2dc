'use strict'
// Issue 19 acceptance 1-3, plus the events a plugin sees: a plugin's
// /hello <name> (a word argument) in the tree the bots receive, completed
// and run, with the plugin's log line; a plugin that cancels block breaks
// in a region (a second bot sees the block stay; outside it digging works);
// `plugins reload` after the file changed, with storage kept across the
// reload and a restart; chat rewritten and cancelled, a login refused,
// join and leave, the command event, `plugins` and `plugins info`.
const { test, before, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { Vec3 } = require('vec3')
const h = require('./helpers')
const mp = require('./mp-helpers')
const pu = require('./persist-util')
const ph = require('./plugin-helpers')

after(ph.cleanup)

const HELLO = `
mc.command{ name = "hello", args = { {"name", "word"} }, run = function(ctx)
  mc.log("hello ran for " .. ctx.args.name)
  return "Hello, " .. ctx.args.name .. "!"
end }
`

// Cancels every block break with x and z in -3..3 (around the spawn at 0, 0).
const REGION = `
mc.on("block_break", function(ev)
  if math.abs(ev.x) <= 3 and math.abs(ev.z) <= 3 then
    ev:cancel()
    mc.log("kept " .. ev.block .. " at " .. ev.x .. " " .. ev.y .. " " .. ev.z .. " for " .. ev.player.name)
  end
end)
`

const EVENTS = `
mc.on("prelogin", function(ev)
  if ev.name == "Mallory" then ev:refuse("No Mallory here (from " .. ev.address .. ")") end
end)
mc.on("join", function(ev) mc.broadcast(ev.player.name .. " arrived, says the plugin") end)
mc.on("leave", function(ev) mc.log(ev.player.name .. " left, says the plugin") end)
mc.on("chat", function(ev)
  if ev.message:find("secret") then ev:cancel()
  elseif ev.message == "hi" then ev.message = "hello everyone" end
end)
mc.on("command", function(ev)
  if ev.line == "seed" then
    ev.cancelled = true
    if ev.player then ev.player:send("no seeds today") end
  end
end)
`

let srv, A, B, recA, recB

before(async () => {
  srv = await ph.startWithPlugins({
    name: 'plugins',
    props: { gamemode: 'creative' },
    plugins: { hello: { 'init.lua': HELLO }, region: { 'init.lua': REGION }, events: { 'init.lua': EVENTS } }
  })
  A = h.makeBot(srv.port, 'Alice')
  recA = mp.recorder(A, ['declare_commands'])
  await A.waitSpawn(15000)
  B = h.makeBot(srv.port, 'Bob')
  recB = mp.recorder(B)
  await B.waitSpawn(15000)
  await h.waitFor(() => A.bot.players.Bob && B.bot.entity.onGround && A.bot.entity.onGround, {
    timeout: 5000, message: 'both bots in place'
  })
})

test('plugins load at startup in order and /plugins lists them', { timeout: 10000 }, async () => {
  assert.match(srv.output(), /Plugins: events, hello, region/)
  const from = srv.output().length
  srv.send('plugins')
  await srv.waitOutput(/Plugins \(3\): events, hello, region/, { from })
  srv.send('plugins info hello')
  await srv.waitOutput(/hello \(enabled\)[\s\S]*Memory [\d.]+ MiB of 64 MiB[\s\S]*Commands: \/hello/, { from })
})

test('acceptance 1: /hello <name> is in the tree, completes, replies, and the plugin logs', { timeout: 10000 }, async () => {
  const tree = recA.packets.declare_commands[recA.packets.declare_commands.length - 1]
  const hello = tree.nodes.find((n) => n.extraNodeData && n.extraNodeData.name === 'hello')
  assert.ok(hello, 'the tree has /hello')
  const arg = tree.nodes[hello.children[0]]
  assert.equal(arg.extraNodeData.name, 'name')
  assert.equal(arg.extraNodeData.parser, 'brigadier:string')
  assert.equal(arg.extraNodeData.properties, 'SINGLE_WORD')
  assert.ok(arg.flags.has_command, 'the word argument runs the command')
  const m = await h.withTimeout(A.bot.tabComplete('/hel'), 3000, 'tab completion')
  assert.ok(m.map((x) => x.match).includes('hello'), `completion offers hello: ${JSON.stringify(m)}`)
  const since = recA.mark()
  const from = srv.output().length
  A.bot.chat('/hello Bob')
  await recA.waitChat(/^Hello, Bob!$/, { since })
  await srv.waitOutput(/\[hello\] hello ran for Bob/, { from })
  A.bot.chat('/hello')
  await recA.waitChat(/Unknown or incomplete command/, { since })
})

test('acceptance 2: a block break cancelled in a region stays for both bots; outside, digging works', { timeout: 20000 }, async () => {
  const inside = new Vec3(2, -61, 1)
  const outside = new Vec3(6, -61, 1)
  await pu.waitColumn(A.bot, outside)
  const before = A.bot.blockAt(inside).name
  assert.notEqual(before, 'air')
  const from = srv.output().length
  await A.bot.dig(A.bot.blockAt(inside)).catch(() => {})
  await srv.waitOutput(/\[region\] kept minecraft:\w+ at 2 -61 1 for Alice/, { from })
  await h.sleep(300)
  assert.equal(A.bot.blockAt(inside).name, before, 'the digger is sent the block back')
  assert.equal(B.bot.blockAt(inside).name, before, 'the other bot still sees it')
  await A.bot.dig(A.bot.blockAt(outside))
  await h.waitFor(() => B.bot.blockAt(outside).name === 'air' && A.bot.blockAt(outside).name === 'air', {
    timeout: 5000, message: 'the block outside the region is gone for both'
  })
})

test('chat: a plugin rewrites one line and cancels another; the command event can cancel', { timeout: 10000 }, async () => {
  const since = recB.mark()
  A.bot.chat('this is secret')
  A.bot.chat('hi')
  await recB.waitChat(/^<Alice> hello everyone$/, { since })
  await h.sleep(200)
  assert.ok(!recB.chat.slice(since.chat).some((l) => /secret/.test(l)), 'the cancelled line never arrives')
  const sa = recA.mark()
  A.bot.chat('/seed')
  await recA.waitChat(/^no seeds today$/, { since: sa })
})

test('pre-login refusal with the plugin\'s message; join and leave events', { timeout: 15000 }, async () => {
  const M = h.makeBot(srv.port, 'Mallory')
  await M.waitEnd(8000)
  assert.match(String(M.kicked), /No Mallory here \(from 127\.0\.0\.1\)/)
  const since = recA.mark()
  const C = h.makeBot(srv.port, 'Carol')
  await C.waitSpawn(15000)
  await recA.waitChat(/^Carol arrived, says the plugin$/, { since })
  const from = srv.output().length
  await C.quit()
  await srv.waitOutput(/\[events\] Carol left, says the plugin/, { from })
})

test('acceptance 3: reload picks up the edited file; storage survives the reload and a restart', { timeout: 45000 }, async () => {
  const v = (tag) => `
mc.command{ name = "note", args = { {"text", "text"} }, run = function(ctx)
  plugin.storage.set("note", { text = ctx.args.text, by = ctx.player and ctx.player.name })
  return "${tag}: noted"
end }
mc.command{ name = "note", run = function(ctx)
  local n = plugin.storage.get("note")
  return "${tag}: " .. (n and (n.text .. " by " .. tostring(n.by)) or "nothing")
end }
`
  const s2 = await ph.startWithPlugins({ name: 'plugins-reload', plugins: { notes: { 'init.lua': v('v1') } } })
  let D = h.makeBot(s2.port, 'Dave')
  let rec = mp.recorder(D)
  await D.waitSpawn(15000)
  let since = rec.mark()
  D.bot.chat('/note remember the milk')
  await rec.waitChat(/^v1: noted$/, { since })
  ph.writePlugin(s2.dir, 'notes', { 'init.lua': v('v2') })
  const from = s2.output().length
  s2.send('plugins reload notes')
  await s2.waitOutput(/Plugins: notes\n/, { from })
  since = rec.mark()
  D.bot.chat('/note')
  await rec.waitChat(/^v2: remember the milk by Dave$/, { since })
  await D.quit()
  await h.waitFor(() => fs.existsSync(path.join(s2.dir, 'plugins/notes/data/storage.json')), {
    timeout: 3000, message: 'storage.json written'
  })
  const s3 = await ph.restart(s2)
  D = h.makeBot(s3.port, 'Dave')
  rec = mp.recorder(D)
  await D.waitSpawn(15000)
  since = rec.mark()
  D.bot.chat('/note')
  await rec.waitChat(/^v2: remember the milk by Dave$/, { since })
  const stored = JSON.parse(fs.readFileSync(path.join(s3.dir, 'plugins/notes/data/storage.json'), 'utf8'))
  assert.deepEqual(stored, { note: { text: 'remember the milk', by: 'Dave' } })
  await D.quit()
  pu.assertNoSanitizerReport(assert, s3)
})

test('the server stops cleanly with plugins loaded, and nothing was reported by a sanitizer', { timeout: 15000 }, async () => {
  await Promise.all([A.quit(), B.quit()])
  const info = await srv.stop(10000)
  assert.equal(info.code, 0, srv.describe())
  pu.assertNoSanitizerReport(assert, srv)
})

h.finalClientErrorCheck(test)
