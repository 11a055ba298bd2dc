'use strict'
// Issue #18 acceptance 3: `mcserv --pregen 64` on a new world writes
// (2·64/16+1)² = 81 chunks that prismarine-provider-anvil reads, around the
// spawn, and exits 0 without opening a port; killed halfway (SIGKILL) and
// started again it resumes: the chunks finished before the kill are not
// written again (their region locations are unchanged) and the rest are
// generated. Also the `pregen` console command: start, status, the
// dashboard's progress, cancel.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawn } = require('node:child_process')
const h = require('./helpers')
const u = require('./persist-util')

after(async () => { await u.cleanup(); await h.cleanupAll() })
const ASAN = /asan/.test(h.MCSERV)
const dirs = []
after(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }) })

function newDir (name, props) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `mcserv-e2e-${name}-`))
  dirs.push(dir)
  fs.writeFileSync(path.join(dir, 'server.properties'), Object.entries(Object.assign({
    'server-ip': '127.0.0.1', 'server-port': '0', 'online-mode': 'false', 'admin-http-port': '0',
    'level-type': 'normal', 'level-seed': '4242', 'management-server-enabled': 'false'
  }, props || {})).map(([k, v]) => `${k}=${v}`).join('\n') + '\n')
  return dir
}

// Runs `mcserv --pregen radius` in dir: { proc, output(), exit (promise of {code, signal}) }.
function pregen (dir, radius) {
  const proc = spawn(h.MCSERV, ['--pregen', String(radius)], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  proc.stdout.on('data', (d) => { out += d })
  proc.stderr.on('data', (d) => { out += d })
  const exit = new Promise((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })))
  return { proc, output: () => out, exit }
}

// Every chunk present in the region files: Map "x,z" -> the location word (sector offset and count).
function locations (worldDir) {
  const out = new Map()
  const rd = path.join(worldDir, 'region')
  if (!fs.existsSync(rd)) return out
  for (const f of fs.readdirSync(rd)) {
    const m = /^r\.(-?\d+)\.(-?\d+)\.mca$/.exec(f)
    if (!m) continue
    const head = fs.readFileSync(path.join(rd, f)).subarray(0, 4096)
    if (head.length < 4096) continue
    for (let i = 0; i < 1024; i++) {
      const loc = head.readUInt32BE(i * 4)
      if (loc) out.set(`${Number(m[1]) * 32 + (i & 31)},${Number(m[2]) * 32 + (i >> 5)}`, loc)
    }
  }
  return out
}

test('mcserv --pregen 64 writes the 81 chunks around the spawn, readable by prismarine-provider-anvil', { timeout: 60000 }, async (t) => {
  const dir = newDir('pregen64')
  const run = pregen(dir, 64)
  const info = await h.withTimeout(run.exit, 45000, 'mcserv --pregen 64 exits')
  assert.equal(info.code, 0, run.output())
  assert.doesNotMatch(run.output(), /Listening on/, 'no listener')
  assert.match(run.output(), /Pre-generation done: 81 chunks \(81 generated, 0 already on disk/)
  const spawnAt = /spawn point: (-?\d+), (-?\d+), (-?\d+)/.exec(run.output())
  assert.ok(spawnAt, 'the spawn is logged')
  const cx = Math.floor(Number(spawnAt[1]) / 16), cz = Math.floor(Number(spawnAt[3]) / 16)
  const { columns, errors } = await u.readAnvilWorld(path.join(dir, 'world'))
  assert.equal(errors.size, 0, [...errors.values()].join('; '))
  assert.equal(columns.size, (2 * 64 / 16 + 1) ** 2)
  for (let x = cx - 4; x <= cx + 4; x++) for (let z = cz - 4; z <= cz + 4; z++) assert.ok(columns.has(`${x},${z}`), `chunk ${x},${z}`)
  // Real terrain: bedrock at the bottom, something solid at sea level or above somewhere.
  const { Vec3 } = require('vec3')
  const col = columns.get(`${cx},${cz}`)
  assert.equal(col.getBlock(new Vec3(3, -64, 3)).name, 'bedrock')
  assert.ok(fs.existsSync(path.join(dir, 'world', 'level.dat')), 'level.dat keeps the seed')
  assert.equal(fs.existsSync(path.join(dir, 'world', 'mcserv-pregen.txt')), false, 'the state file is gone when done')
  u.assertNoSanitizerReport(assert, { output: run.output })

  // Again: nothing to do, nothing rewritten.
  const before = locations(path.join(dir, 'world'))
  const again = pregen(dir, 64)
  assert.equal((await h.withTimeout(again.exit, 30000, 'second run')).code, 0)
  assert.match(again.output(), /Pre-generation done: 81 chunks \(0 generated, 81 already on disk/)
  assert.deepEqual(locations(path.join(dir, 'world')), before)
})

test('killed halfway, mcserv --pregen resumes without redoing finished chunks', { timeout: 180000 }, async (t) => {
  const radius = ASAN ? 320 : 640
  const total = (2 * Math.ceil(radius / 16) + 1) ** 2
  const dir = newDir('pregen-kill')
  const world = path.join(dir, 'world')
  const state = path.join(world, 'mcserv-pregen.txt')
  const first = pregen(dir, radius)
  // Halfway or so: a resume point past the first cells, then SIGKILL (no chance to save anything).
  await h.waitFor(() => {
    if (!fs.existsSync(state)) return false
    const m = /next_cell=(\d+)/.exec(fs.readFileSync(state, 'utf8'))
    return m && locations(world).size > total / 4
  }, { timeout: 90000, interval: 50, message: 'progress before the kill', detail: first.output })
  first.proc.kill('SIGKILL')
  await first.exit
  const done = locations(world)
  t.diagnostic(`killed with ${done.size} of ${total} chunks on disk; ${fs.readFileSync(state, 'utf8').replace(/\n/g, ' ')}`)
  assert.ok(done.size < total, 'killed before the end')

  const second = pregen(dir, radius)
  const info = await h.withTimeout(second.exit, 150000, 'the resumed run exits')
  assert.equal(info.code, 0, second.output())
  assert.match(second.output(), /Resuming pre-generation of radius \d+/)
  const m = /Pre-generation done: (\d+) chunks \((\d+) generated, (\d+) already on disk/.exec(second.output())
  assert.ok(m, second.output())
  assert.equal(Number(m[1]), total)
  assert.equal(Number(m[2]), total - done.size, 'only the missing chunks were generated')
  const after = locations(world)
  assert.equal(after.size, total)
  let moved = 0
  for (const [k, loc] of done) if (after.get(k) !== loc) moved++
  assert.equal(moved, 0, 'no chunk finished before the kill was written again')
  assert.equal(fs.existsSync(state), false)
  u.assertNoSanitizerReport(assert, { output: second.output })
})

test('the pregen command: start, status, progress in /api/status, done, cancel', { timeout: 90000 }, async (t) => {
  const httpPort = await h.freePort()
  await h.withServer({ name: 'pregen-cmd', props: { 'admin-http-port': httpPort, 'level-type': 'normal' } }, async (srv) => {
    u.attachConsole(srv)
    const get = async (p) => JSON.parse(await new Promise((resolve, reject) => require('node:http').get({ host: '127.0.0.1', port: httpPort, path: p }, (res) => {
      let b = ''; res.on('data', (d) => { b += d }); res.on('end', () => resolve(b))
    }).on('error', reject)))
    let from = srv.output().length
    srv.send('pregen 100 500 -500')
    await srv.waitOutput(/Pre-generating 225 chunks within 100 blocks of 500, -500/, { from })
    const st = (await get('/api/status')).pregen
    assert.equal(st.total, 225)
    assert.equal(st.center_x, 500)
    await srv.waitOutput(/Pre-generation done: 225 chunks \(225 generated/, { from, timeout: 60000 })
    from = srv.output().length
    srv.send('pregen status')
    await srv.waitOutput(/No pre-generation is running/, { from })
    srv.send('pregen 0')
    await srv.waitOutput(/Cannot pre-generate: the radius must be 1 to 100000 blocks/, { from })

    // A long one, seen running on the dashboard's feed, then cancelled.
    from = srv.output().length
    srv.send('pregen 3000 -5000 5000')
    await h.waitFor(async () => (await get('/api/status')).pregen.done > 0, { timeout: 20000, interval: 100, message: 'progress' })
    const run = (await get('/api/status')).pregen
    assert.equal(run.running, true)
    assert.equal(run.total, (2 * Math.ceil(3000 / 16) + 1) ** 2)
    srv.send('pregen status')
    await srv.waitOutput(/Pre-generation: \d+ of 142129 chunks .*chunks\/s, ETA/, { from })
    srv.send('pregen 10')
    await srv.waitOutput(/Cannot pre-generate: a pre-generation is running already/, { from })
    srv.send('pregen cancel')
    await srv.waitOutput(/Pre-generation cancelled at \d+ of 142129 chunks/, { from, timeout: 10000 })
    await h.waitFor(async () => !(await get('/api/status')).pregen.running, { timeout: 5000, message: 'stopped' })
    await h.waitFor(() => !fs.existsSync(path.join(srv.dir, 'world', 'mcserv-pregen.txt')), { timeout: 5000, message: 'state file removed' })
  })
})
