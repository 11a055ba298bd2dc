'use strict'
// Helpers for the persistence tests (persist, crash, interop): restarting
// mcserv in a server directory that already exists (helpers.startServer
// always makes a fresh one), console commands on stdin, waiting for log
// lines, placing blocks with mineflayer, and reading worlds back with
// prismarine-provider-anvil.
//
// Invariants: every wait is bounded; every process started here is killed
// by cleanup() (registered with after() by each test file) or at exit.

const fs = require('node:fs')
const path = require('node:path')
const { spawn } = require('node:child_process')
const h = require('./helpers')

const VERSION = '1.20.1'
const procs = new Set()

process.on('exit', () => {
  for (const s of procs) { if (!s.exited) { try { s.proc.kill('SIGKILL') } catch (e) {} } }
})

/** Port from a server directory's server.properties. */
function portOf (dir) {
  const m = /^server-port=(\d+)$/m.exec(fs.readFileSync(path.join(dir, 'server.properties'), 'utf8'))
  return m ? Number(m[1]) : null
}

/**
 * Starts mcserv in an existing server directory. Same handle shape as
 * helpers.startServer: { proc, pid, port, dir, output(), stop(), kill(),
 * waitExit(), send(line), waitOutput(re, { from, timeout }) }.
 */
async function startIn (dir, { name = 'restart', readyTimeout = 15000, waitReady = true } = {}) {
  const chunks = []
  const proc = spawn(h.MCSERV, [], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'] })
  const srv = { proc, pid: proc.pid, port: portOf(dir), dir, name, exited: false, exitInfo: null }
  procs.add(srv)
  proc.stdout.setEncoding('utf8')
  proc.stderr.setEncoding('utf8')
  proc.stdout.on('data', (d) => chunks.push(d))
  proc.stderr.on('data', (d) => chunks.push(d))
  proc.stdin.on('error', () => {})
  srv.output = () => chunks.join('')
  const exitP = new Promise((resolve) => proc.on('exit', (code, signal) => {
    srv.exited = true
    srv.exitInfo = { code, signal }
    resolve(srv.exitInfo)
  }))
  srv.waitExit = (ms = 5000) => h.withTimeout(exitP, ms, 'exit').catch(() => null)
  srv.stop = async (ms = 10000) => {
    if (srv.exited) return srv.exitInfo
    try { proc.kill('SIGTERM') } catch (e) {}
    const info = await srv.waitExit(ms)
    if (info) return info
    await srv.kill()
    return { code: null, signal: 'SIGKILL', timedOut: true }
  }
  srv.kill = async () => {
    if (srv.exited) return
    try { proc.kill('SIGKILL') } catch (e) {}
    await srv.waitExit(3000)
  }
  srv.describe = () => `server ${name} (pid ${srv.pid}, port ${srv.port}, dir ${dir})\n--- output (tail) ---\n` + h.tail(srv.output())
  attachConsole(srv)
  if (!waitReady) return srv
  await h.waitFor(() => {
    if (/Done \(/.test(srv.output())) return true
    if (srv.exited) throw new Error('exited before Done: ' + JSON.stringify(srv.exitInfo))
    return false
  }, { timeout: readyTimeout, interval: 20, message: '`Done (`', detail: srv.describe })
  return srv
}

/** Adds send(line) and waitOutput(re, {from, timeout}) to a server handle. */
function attachConsole (srv) {
  srv.send = (line) => { try { srv.proc.stdin.write(line + '\n') } catch (e) {} }
  /** Resolves with the match once `re` matches output after offset `from`. */
  srv.waitOutput = (re, { from = 0, timeout = 10000 } = {}) => h.waitFor(() => {
    const m = re.exec(srv.output().slice(from))
    return m || false
  }, { timeout, interval: 20, message: `server output ${re}`, detail: () => h.tail(srv.output().slice(from), 3000) })
  return srv
}

async function cleanup () {
  await Promise.all([...procs].map((s) => s.exited ? null : s.stop(5000)))
  procs.clear()
}

/** Waits until the bot has the chunk column under `pos` loaded. */
function waitColumn (bot, pos, timeout = 10000) {
  return h.waitFor(() => bot.world.getColumnAt(pos) != null, { timeout, message: `chunk under ${pos}` })
}

/**
 * Places `name` at `pos` (against the block below) and waits until the
 * server's update shows it. The item is put in hotbar slot 0 first.
 */
async function placeAt (bot, pos, name, timeout = 5000) {
  const Item = require('prismarine-item')(bot.registry)
  const { Vec3 } = require('vec3')
  const item = bot.registry.itemsByName[name]
  if (!bot.heldItem || bot.heldItem.name !== name) {
    await bot.creative.setInventorySlot(36, new Item(item.id, 64))
    bot.setQuickBarSlot(0)
    await h.waitFor(() => bot.heldItem && bot.heldItem.name === name, { timeout: 3000, message: `holding ${name}` })
  }
  const below = bot.blockAt(pos.offset(0, -1, 0))
  await h.withTimeout(bot.placeBlock(below, new Vec3(0, 1, 0)).catch((e) => {
    // mineflayer rejects when its own 5 s wait for the update expires; the
    // check below is what counts.
    if (!/blockUpdate|did not fire|timeout/i.test(String(e && e.message))) throw e
  }), timeout + 1000, `place ${name} at ${pos}`)
  await h.waitFor(() => bot.blockAt(pos) && bot.blockAt(pos).name === name, {
    timeout, message: `${name} at ${pos}`, detail: () => `found ${bot.blockAt(pos) && bot.blockAt(pos).name}`
  })
}

/**
 * Every chunk of every region file under dir/region, loaded with
 * prismarine-provider-anvil: { columns: Map "x,z" → Chunk, errors: Map
 * "x,z" → message for chunks the tool could not read }.
 */
async function readAnvilWorld (worldDir) {
  const { Anvil } = require('prismarine-provider-anvil')
  const AnvilV = Anvil(VERSION)
  const regionDir = path.join(worldDir, 'region')
  const anvil = new AnvilV(regionDir)
  const columns = new Map()
  const errors = new Map()
  try {
    for (const f of fs.readdirSync(regionDir)) {
      const m = /^r\.(-?\d+)\.(-?\d+)\.mca$/.exec(f)
      if (!m) continue
      const rx = Number(m[1])
      const rz = Number(m[2])
      const region = await anvil.getRegion(rx * 32, rz * 32)
      for (let lx = 0; lx < 32; lx++) {
        for (let lz = 0; lz < 32; lz++) {
          if (!region.hasChunk(lx, lz)) continue
          const x = rx * 32 + lx
          const z = rz * 32 + lz
          try {
            columns.set(`${x},${z}`, await anvil.load(x, z))
          } catch (e) {
            errors.set(`${x},${z}`, String(e && e.message))
          }
        }
      }
    }
  } finally {
    await anvil.close()
  }
  return { columns, errors }
}

/**
 * Compares two prismarine-chunk columns block by block (state ids, y from
 * -64 to 319). Returns a description of the first difference, or null.
 */
function diffColumns (a, b) {
  const { Vec3 } = require('vec3')
  const p = new Vec3(0, 0, 0)
  for (let y = -64; y < 320; y++) {
    for (let z = 0; z < 16; z++) {
      for (let x = 0; x < 16; x++) {
        p.x = x; p.y = y; p.z = z
        const sa = a.getBlockStateId(p)
        const sb = b.getBlockStateId(p)
        if (sa !== sb) return `at ${x},${y},${z}: ${sa} vs ${sb}`
      }
    }
  }
  return null
}

/** Fails if the server's output has a sanitizer report (ASan, LSan, UBSan builds). */
function assertNoSanitizerReport (assert, srv) {
  assert.doesNotMatch(srv.output(), /AddressSanitizer|LeakSanitizer|runtime error:/,
    `sanitizer report in the server output\n${h.tail(srv.output())}`)
}

module.exports = { startIn, assertNoSanitizerReport, attachConsole, cleanup, waitColumn, placeAt, readAnvilWorld, diffColumns, portOf, VERSION }
