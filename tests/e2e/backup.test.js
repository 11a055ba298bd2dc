'use strict'
// The backup recipe of docs/operations.md, run over RCON as a backup script
// would (issue 17, acceptance 4), with minecraft-server-util's RCON client:
//   save-off → "Automatic saving is now disabled"
//   save-all flush → one answer, sent once the data is on disk, ending
//                    "Saved the game" (vanilla's; scripts chain on it)
//   tar the world folder (while saving is off nothing writes to it)
//   save-on → "Automatic saving is now enabled"
// The archive is restored into a second server directory; the second server
// serves the blocks a player placed before save-all flush, and not the one
// placed after the archive was made. Also: "X joined the game" is logged, and
// a command sent while save-all's answer is due is answered after it, in
// order. Everything runs on 127.0.0.1; every wait is bounded.

const { test, after } = require('node:test')
const assert = require('node:assert')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const { Vec3 } = require('vec3')
const h = require('./helpers')
const u = require('./persist-util')

h.setFileDeadline(100000)
const PASSWORD = 'e2e-rcon-backup-5b1c'
const scratch = []

after(async () => {
  for (const d of scratch) fs.rmSync(d, { recursive: true, force: true })
  await u.cleanup()
  await h.cleanupAll()
})

test('the backup recipe over RCON: save-all flush answers after the save; the restored archive has the blocks', { timeout: 90000 }, async () => {
  const rconPort = await h.freePort()
  const srv = await h.startServer({
    name: 'backup',
    props: {
      'level-type': 'flat',
      'view-distance': '3',
      'spawn-protection': '0',
      'enable-rcon': 'true',
      'rcon.port': rconPort,
      'rcon.password': PASSWORD
    }
  })
  u.attachConsole(srv)
  const rcon = await h.rconSession(rconPort, PASSWORD)
  const run = (line) => h.withTimeout(rcon.execute(line), 10000, `rcon ${line}`)

  const A = h.makeBot(srv.port, 'Archivist')
  await A.waitSpawn(15000)
  await srv.waitOutput(/Archivist joined the game/, { timeout: 5000 })
  assert.match(await run('gamemode creative Archivist'), /Set Archivist's game mode to Creative Mode/)
  await h.waitFor(() => A.bot.game.gameMode === 'creative', { timeout: 5000, message: 'creative' }).catch(() => { A.bot.game.gameMode = 'creative' })
  const a = A.bot
  const base = a.entity.position.floored()
  const blocks = [['gold_block', 2, 0], ['diamond_block', 3, 0], ['emerald_block', 2, 2], ['lapis_block', 3, 2]]
  const at = ([, dx, dz]) => new Vec3(base.x + dx, base.y, base.z + dz)
  await u.waitColumn(a, at(blocks[0]))
  for (const b of blocks) await u.placeAt(a, at(b), b[0])

  // The recipe.
  assert.equal(await run('save-off'), 'Automatic saving is now disabled')
  assert.equal(await run('save-off'), 'Saving is already turned off')
  // A command sent right behind save-all waits for its answer: answers stay in order.
  const flushP = run('save-all flush')
  const listP = run('list')
  const flush = await flushP
  assert.equal(flush, 'Saving the game (this may take a moment!)\nSaved the game', 'one answer, after the save')
  assert.match(await listP, /^There are 1 of a max of \d+ players online: Archivist$/)
  assert.match(srv.output(), /Saved the game/)

  const archive = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-e2e-backup-')), 'world.tar.gz')
  scratch.push(path.dirname(archive))
  execFileSync('tar', ['-czf', archive, '-C', srv.dir, 'world'])
  assert.equal(await run('save-on'), 'Automatic saving is now enabled')

  // After the archive: a block that the restored world must not have.
  const late = new Vec3(base.x + 4, base.y, base.z + 1)
  await u.placeAt(a, late, 'obsidian')
  await A.quit()
  rcon.close()
  assert.equal((await srv.stop(10000)).code, 0)

  // Restore into a second server directory and look with a second player.
  const dir2 = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-e2e-restore-'))
  scratch.push(dir2)
  execFileSync('tar', ['-xzf', archive, '-C', dir2])
  const port2 = await h.freePort()
  fs.writeFileSync(path.join(dir2, 'server.properties'),
    `server-port=${port2}\nserver-ip=127.0.0.1\nonline-mode=false\nlevel-type=flat\nview-distance=3\nadmin-http-port=0\n`)
  const srv2 = await u.startIn(dir2, { name: 'backup-restored' })
  const B = h.makeBot(port2, 'Restorer')
  await B.waitSpawn(15000)
  const b = B.bot
  await u.waitColumn(b, at(blocks[0]))
  for (const blk of blocks) {
    await h.waitFor(() => b.blockAt(at(blk)) && b.blockAt(at(blk)).name === blk[0], {
      timeout: 5000, message: `${blk[0]} in the restored world`, detail: () => String(b.blockAt(at(blk)) && b.blockAt(at(blk)).name)
    })
  }
  assert.notEqual(b.blockAt(late) && b.blockAt(late).name, 'obsidian', 'placed after the archive: not in it')
  await B.quit()
  assert.equal((await srv2.stop(10000)).code, 0)
  u.assertNoSanitizerReport(assert, srv)
  u.assertNoSanitizerReport(assert, srv2)
})
