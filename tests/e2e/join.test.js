'use strict'
// Acceptance 1: a real client (mineflayer) joins a flat world, spawns, gets
// the chunks of its view distance and stands on grass at y=-60.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')

after(h.cleanupAll)

const VIEW = 3

/** Join a bot, check spawn/chunks/ground; returns the bot handle. */
async function joinAndCheck (srv, username, setup) {
  const b = h.makeBot(srv.port, username)
  if (setup) setup(b)
  // The join sequence as the client saw it (first packets only).
  const seq = []
  for (const name of ['login', 'position', 'update_view_position', 'map_chunk', 'spawn_position', 'update_health']) {
    b.bot._client.on(name, (p) => {
      if (seq.length < 400) seq.push(name === 'map_chunk' ? `map_chunk(${p.x},${p.z})` : name)
    })
  }
  b.joinSequence = seq
  const ctx = () => b.describe() + '\n' + srv.describe()
  try {
    await b.waitSpawn(15000)
  } catch (e) {
    assert.fail(`${e.message}\n${ctx()}`)
  }

  // Chunks are streamed and paced: wait until the full square around the
  // player's chunk has arrived.
  const need = (2 * VIEW + 1) ** 2
  const missing = () => {
    const pos = b.bot.entity.position
    const cx = Math.floor(pos.x / 16)
    const cz = Math.floor(pos.z / 16)
    const out = []
    for (let x = cx - VIEW; x <= cx + VIEW; x++) {
      for (let z = cz - VIEW; z <= cz + VIEW; z++) {
        if (!b.mapChunks.has(`${x},${z}`)) out.push(`${x},${z}`)
      }
    }
    return out
  }
  await h.waitFor(() => b.mapChunks.size >= need && missing().length === 0, {
    timeout: 10000,
    message: `${need} chunks (view-distance=${VIEW}) around the player`,
    detail: () => `got ${b.mapChunks.size} distinct chunks (${b.mapChunkPackets} map_chunk packets); ` +
      `missing: ${missing().join(' ')}\n${ctx()}`
  })
  assert.ok(b.mapChunks.size >= need, `expected >= ${need} chunks, got ${b.mapChunks.size}`)

  // Join order (contract): login, position, center chunk, then chunks
  // nearest first. Whatever the distance metric, the player's own chunk
  // comes first and its 3x3 neighbourhood makes up the first nine.
  const seqText = () => `join sequence: ${seq.slice(0, 20).join(' ')} …`
  const iLogin = seq.indexOf('login')
  const iPos = seq.indexOf('position')
  const iCenter = seq.indexOf('update_view_position')
  const iChunk = seq.findIndex((x) => x.startsWith('map_chunk'))
  assert.equal(iLogin, 0, 'Login (play) is the first of these packets; ' + seqText())
  assert.ok(iPos > iLogin && iPos < iChunk, 'position before the first chunk; ' + seqText())
  assert.ok(iCenter >= 0 && iCenter < iChunk, 'Set Center Chunk before the first chunk; ' + seqText())
  const chunksInOrder = seq.filter((x) => x.startsWith('map_chunk'))
  assert.equal(chunksInOrder[0], 'map_chunk(0,0)', 'the player\'s chunk comes first; ' + seqText())
  const firstNine = chunksInOrder.slice(0, 9).map((x) => x.slice(10, -1).split(',').map(Number))
  assert.ok(firstNine.every(([x, z]) => Math.abs(x) <= 1 && Math.abs(z) <= 1),
    'the first nine chunks are the 3x3 around the player (nearest first); ' + seqText())

  // The ground under the player: wait for the column to be in the world.
  const below = () => b.bot.blockAt(b.bot.entity.position.offset(0, -1, 0))
  await h.waitFor(() => below() != null, {
    timeout: 5000,
    message: 'the block under the player to be loaded',
    detail: ctx
  })
  // Let physics settle (the bot may still be falling a few ticks).
  await h.waitFor(() => Math.abs(b.bot.entity.position.y - -60) < 0.05 && b.bot.entity.onGround, {
    timeout: 3000,
    message: 'the player to stand at y=-60',
    detail: () => `position ${b.bot.entity.position} onGround=${b.bot.entity.onGround}\n${ctx()}`
  })
  const pos = b.bot.entity.position
  assert.ok(Math.abs(pos.y - -60) < 0.05, `y should be -60, got ${pos.y}`)
  assert.ok(Math.abs(pos.x - 0.5) <= 1 && Math.abs(pos.z - 0.5) <= 1,
    `spawn should be near x=0.5,z=0.5, got ${pos}`)
  const blk = below()
  assert.equal(blk.name, 'grass_block', `block under the player at ${blk.position}: ${blk.name}`)
  // The flat layers under it.
  const at = (y) => b.bot.blockAt(pos.floored().offset(0, y - Math.floor(pos.y), 0))
  assert.equal(at(-62).name, 'dirt', 'y=-62 should be dirt')
  assert.equal(at(-63).name, 'dirt', 'y=-63 should be dirt')
  assert.equal(at(-64).name, 'bedrock', 'y=-64 should be bedrock')
  assert.equal(at(-60).name, 'air', 'y=-60 (the player\'s feet) should be air')
  assert.equal(b.ended, null, `bot should still be connected: ${b.describe()}`)
  return b
}

test('mineflayer joins (compression 256): spawn, (2r+1)^2 chunks, grass under feet at y=-60', { timeout: 40000 }, async () => {
  const since = h.mark()
  await h.withServer({
    name: 'join',
    props: {
      'view-distance': VIEW,
      'max-players': 10,
      motd: 'mcserv join test',
      'network-compression-threshold': 256
    }
  }, async (srv) => {
    let compress = null
    const b = await joinAndCheck(srv, 'JoinBot', (bh) => {
      bh.bot._client.on('compress', (p) => { compress = p })
    })
    assert.ok(compress, 'threshold 256 should send Set Compression')
    assert.equal(compress.threshold, 256, `Set Compression threshold: ${JSON.stringify(compress)}`)
    await b.quit()
    h.assertNoClientProtocolErrors(assert, since, srv)
  })
})

test('mineflayer joins with network-compression-threshold=-1 and reads the block', { timeout: 40000 }, async () => {
  const since = h.mark()
  await h.withServer({
    name: 'join-nocomp',
    props: {
      'view-distance': VIEW,
      'max-players': 10,
      motd: 'mcserv join test (no compression)',
      'network-compression-threshold': -1
    }
  }, async (srv) => {
    let compress = null
    const b = await joinAndCheck(srv, 'PlainBot', (bh) => {
      bh.bot._client.on('compress', (p) => { compress = p })
    })
    assert.equal(compress, null, `threshold -1 must not send Set Compression, got ${JSON.stringify(compress)}`)
    await b.quit()
    h.assertNoClientProtocolErrors(assert, since, srv)
  })
})

h.finalClientErrorCheck(test)
