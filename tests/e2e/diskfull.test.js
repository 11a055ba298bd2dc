'use strict'
// Issue 23 acceptance 5: a full disk. The world folder is a small tmpfs
// (mount -t tmpfs needs root: skipped with a message otherwise); a filler
// file takes every free page, then is removed.
//   1. A player leaves while the disk is full: its file cannot be written
//      (the file still holds the previous session). save-all on the console,
//      over RCON and by an operator in game reports what could not be saved
//      instead of success.
//   2. Space returns: the next save-all writes the file (position, game
//      mode) although the player is offline, and reports success.
//   3. Again with the disk full, then space back and `stop`: the final save
//      writes the file of the player who left.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const h = require('./helpers')
const u = require('./persist-util')

const PASSWORD = 'e2e-diskfull-rcon-5c1e'
const mounts = []

after(async () => {
  await h.cleanupAll()
  await u.cleanup()
  for (const dir of mounts) {
    spawnSync('umount', ['-l', dir])
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

/** A fresh tmpfs of `size` on a temp folder: { dir } or { why } when mount is refused. */
function mountTmpfs (size) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-e2e-tmpfs-'))
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' })
  if (r.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true })
    return { why: `mount -t tmpfs is not permitted here (${(r.stderr || r.error || '').toString().trim() || 'exit ' + r.status}); run as root` }
  }
  mounts.push(dir)
  return { dir }
}

/** Fills the file system under dir to the last page; returns the filler's path. */
function fillDisk (dir) {
  const file = path.join(dir, 'filler')
  const fd = fs.openSync(file, 'a')
  try {
    for (const size of [1 << 20, 65536, 4096, 512, 1]) {
      const b = Buffer.alloc(size)
      try { for (;;) fs.writeSync(fd, b) } catch (e) { if (e.code !== 'ENOSPC') throw e }
    }
  } finally {
    fs.closeSync(fd)
  }
  return file
}

async function readPlayer (file) {
  const nbt = require('prismarine-nbt')
  const { parsed } = await nbt.parse(fs.readFileSync(file))
  return nbt.simplify(parsed)
}

const uuidText = (name) => h.offlineUuid(name).toString('hex').replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5')

/** Joins `name`, runs `setup` (console commands), waits until the bot stands at `at`, and leaves. */
async function visit (srv, name, at, commands) {
  const b = h.makeBot(srv.port, name)
  await b.waitSpawn(15000).catch((e) => assert.fail(`${e.message}\n${b.describe()}\n${srv.describe()}`))
  for (const c of commands) srv.send(c)
  await h.waitFor(() => b.bot.entity && b.bot.entity.position.distanceTo(at) < 0.01,
    { timeout: 5000, message: `${name} at ${at}`, detail: () => `at ${b.bot.entity && b.bot.entity.position}` })
  return b
}

async function leave (srv, b) {
  const from = srv.output().length
  await b.quit()
  await srv.waitOutput(new RegExp(`${b.username} left the game`), { from })
}

test('a player file refused by a full disk is written once space returns; save-all reports the failure', { timeout: 90000 }, async (t) => {
  const m = mountTmpfs('4m')
  if (!m.dir) { t.skip(m.why); return }
  const { Vec3 } = require('vec3')
  const rconPort = await h.freePort()
  const srv = await h.startServer({
    name: 'diskfull',
    props: {
      'level-type': 'flat',
      'level-name': m.dir,
      'view-distance': '2',
      'autosave-interval': '0', // rounds only on save-all and stop: the test decides when
      'enable-rcon': 'true',
      'rcon.port': rconPort,
      'rcon.password': PASSWORD
    }
  })
  u.attachConsole(srv)
  const file = path.join(m.dir, 'playerdata', uuidText('Leaver') + '.dat')

  // Session 1: the file holds survival at the spawn.
  const s1 = await visit(srv, 'Leaver', new Vec3(0.5, -60, 0.5), ['tp Leaver 0.5 -60 0.5'])
  await leave(srv, s1)
  let from = srv.output().length
  srv.send('save-all flush')
  await srv.waitOutput(/Saved the game/, { from })
  assert.equal((await readPlayer(file)).playerGameType, 0)

  // An operator who will ask for save-all in game.
  const W = h.makeBot(srv.port, 'Watcher')
  await W.waitSpawn(15000)
  srv.send('op Watcher')
  await srv.waitOutput(/Made Watcher a server operator/, { from })
  const heard = []
  W.bot.on('message', (msg) => heard.push(msg.toString()))

  // Session 2: creative at 5.5, 7.5; the disk fills before the player leaves.
  const s2 = await visit(srv, 'Leaver', new Vec3(5.5, -60, 7.5), ['gamemode creative Leaver', 'tp Leaver 5.5 -60 7.5'])
  const filler = fillDisk(m.dir)
  from = srv.output().length
  await leave(srv, s2)
  await srv.waitOutput(new RegExp(`${uuidText('Leaver')}\\.dat: save failed: No space left on device`), { from })
  assert.equal((await readPlayer(file)).playerGameType, 0, 'the file still holds session 1')

  // save-all with the disk still full: the console, RCON and a player hear what failed.
  from = srv.output().length
  srv.send('save-all')
  const fail = await srv.waitOutput(/save-all failed: could not save [^\n]*?(\d+) player files? \(No space left on device\)[^\n]*/, { from })
  assert.ok(Number(fail[1]) >= 1, fail[0])
  assert.doesNotMatch(srv.output().slice(from), /Saved the game/, 'no success while the disk is full')

  const { RCON } = require('minecraft-server-util')
  const rcon = new RCON()
  rcon.on('error', () => {})
  await rcon.connect('127.0.0.1', rconPort, { timeout: 3000 })
  await rcon.login(PASSWORD, { timeout: 3000 })
  from = srv.output().length
  const reply = await h.withTimeout(rcon.execute('save-all'), 3000, 'rcon save-all')
  // One answer, once the round is over (vanilla's save-all answers after the save).
  assert.match(reply, /^Saving the game \(this may take a moment!\)\nCould not save [^\n]*\d+ player files? \(No space left on device\) at the last attempt; retrying now\nUnable to save the game \(is there enough disk space\?\)\nCould not save [^\n]*\d+ player files? \(No space left on device\); will retry at the next save$/, reply)
  await srv.waitOutput(/save-all failed: could not save/, { from })

  heard.length = 0
  W.bot.chat('/save-all')
  await h.waitFor(() => heard.some((l) => /^Could not save .*player files? \(No space left on device\); will retry at the next save$/.test(l)),
    { timeout: 10000, message: 'Watcher hears the failure', detail: () => heard.join('\n') })
  assert.ok(heard.includes('Saving the game (this may take a moment!)'), heard.join('\n'))
  assert.ok(heard.includes('Unable to save the game (is there enough disk space?)'), heard.join('\n'))
  assert.ok(!heard.includes('Saved the game'), heard.join('\n'))
  assert.equal((await readPlayer(file)).playerGameType, 0, 'still session 1 on disk')

  // Space returns: the next save-all writes the offline player's file.
  fs.unlinkSync(filler)
  heard.length = 0
  W.bot.chat('/save-all')
  await h.waitFor(() => heard.includes('Saved the game'), { timeout: 10000, message: 'Watcher hears "Saved the game"', detail: () => heard.join('\n') })
  let p = await readPlayer(file)
  assert.equal(p.playerGameType, 1, 'the game mode of session 2')
  assert.deepEqual(p.Pos.map((v) => Math.round(v * 100) / 100), [5.5, -60, 7.5], 'the position of session 2')
  const reply2 = await h.withTimeout(rcon.execute('save-all'), 3000, 'rcon save-all')
  assert.equal(reply2, 'Saving the game (this may take a moment!)\nSaved the game', 'nothing left unsaved')
  await rcon.close()

  // Session 3: full again when the player leaves; space returns, then `stop`.
  const s3 = await visit(srv, 'Leaver', new Vec3(9.5, -60, 3.5), ['gamemode adventure Leaver', 'tp Leaver 9.5 -60 3.5'])
  const filler2 = fillDisk(m.dir)
  from = srv.output().length
  await leave(srv, s3)
  await srv.waitOutput(/save failed: No space left on device/, { from })
  fs.unlinkSync(filler2)
  await W.quit()
  from = srv.output().length
  srv.send('stop')
  const info = await srv.waitExit(20000)
  assert.ok(info, 'the server exits after `stop`\n' + srv.describe())
  assert.equal(info.code, 0, srv.describe())
  assert.match(srv.output().slice(from), /Saved the game/, 'the final save succeeds')
  u.assertNoSanitizerReport(assert, srv)
  p = await readPlayer(file)
  assert.equal(p.playerGameType, 2, 'the game mode of session 3, written by the final save')
  assert.deepEqual(p.Pos.map((v) => Math.round(v * 100) / 100), [9.5, -60, 3.5])
})
