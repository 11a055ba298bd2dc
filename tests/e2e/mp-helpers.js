'use strict'
// Helpers for the multiplayer and command end-to-end tests (on top of
// helpers.js, which stays as it is).
//
//   consoleCmd(srv, line)        a line on the server's stdin (the console)
//   recorder(h)                  records a bot's chat lines and chosen raw
//                                packets; waitChat / waitPacket poll them
//   joinAll(port, names)         bots joined and spawned, in order
//   dist(a, b)                   distance between two Vec3-like points
//   walkStraight(bot, blocks)    walks forward until `blocks` from the start
//
// Invariants: every wait is bounded (helpers.waitFor); recorders keep at
// most MAX_RECORDED entries per kind so a chatty test cannot grow memory.

const h = require('./helpers')

const MAX_RECORDED = 2000

/** Send a console command (a line on stdin). */
function consoleCmd (srv, line) {
  srv.proc.stdin.write(line + '\n')
}

/**
 * Start recording a bot's chat (`messagestr`) and the raw packets named in
 * `packets`. Returns { chat: [...strings], packets: {name: [...]}, mark(),
 * waitChat(re, opts), waitPacket(name, pred, opts) }.
 */
function recorder (b, packets = []) {
  const r = { chat: [], packets: {}, chatJson: [] }
  b.bot.on('messagestr', (m) => { if (r.chat.length < MAX_RECORDED) r.chat.push(m) })
  b.bot._client.on('system_chat', (p) => { if (r.chatJson.length < MAX_RECORDED) r.chatJson.push(p.content) })
  for (const name of packets) {
    r.packets[name] = []
    b.bot._client.on(name, (p) => { if (r.packets[name].length < MAX_RECORDED) r.packets[name].push(p) })
  }
  /** Indexes to only look at later entries. */
  r.mark = () => ({ chat: r.chat.length, packets: Object.fromEntries(Object.entries(r.packets).map(([k, v]) => [k, v.length])) })
  r.waitChat = (re, { since, timeout = 5000, message } = {}) => h.waitFor(
    () => r.chat.slice(since ? since.chat : 0).find((m) => re.test(m)),
    { timeout, message: message || `${b.username} chat matching ${re}`, detail: () => `${b.username} chat:\n  ${r.chat.slice(-15).join('\n  ')}` })
  r.waitPacket = (name, pred = () => true, { since, timeout = 5000, message } = {}) => h.waitFor(
    () => r.packets[name].slice(since ? since.packets[name] : 0).find(pred),
    { timeout, message: message || `${b.username} ${name} packet`, detail: () => `${r.packets[name].length} ${name} packets; last: ${JSON.stringify(r.packets[name].slice(-3))}` })
  return r
}

/** Join bots one after the other; returns their handles (all spawned). */
async function joinAll (port, names, extra) {
  const out = []
  for (const n of names) {
    const b = h.makeBot(port, n, extra)
    await b.waitSpawn(15000)
    out.push(b)
  }
  return out
}

function dist (a, b) {
  const dx = a.x - b.x
  const dy = a.y - b.y
  const dz = a.z - b.z
  return Math.sqrt(dx * dx + dy * dy + dz * dz)
}

/** Walk forward (facing `yaw`) until `blocks` away from the start; bounded by `timeout`. */
async function walkStraight (bot, yaw, blocks, timeout = 8000) {
  await bot.look(yaw, 0, true)
  const start = bot.entity.position.clone()
  bot.setControlState('forward', true)
  try {
    await h.waitFor(() => dist(bot.entity.position, start) >= blocks, {
      timeout, interval: 20, message: `${bot.username} to walk ${blocks} blocks`
    })
  } finally {
    bot.setControlState('forward', false)
  }
  // let the last steps reach the server
  await h.sleep(150)
}

module.exports = { consoleCmd, recorder, joinAll, dist, walkStraight, MAX_RECORDED }
