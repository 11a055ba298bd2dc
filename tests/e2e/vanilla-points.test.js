'use strict'
// Issue 23 "Found" 6, two of the smaller points, as vanilla 1.20.1 does them
// (raw minecraft-protocol clients: they send nothing but what the test writes):
//   1. a plugin message (serverbound custom_payload) with more than 32,767
//      bytes of data closes the connection with vanilla's decoder error;
//      32,767 bytes are accepted.
//   2. after /tp the chunk window moves at once: a client teleported 1,000
//      blocks away gets Set Center Chunk and the chunks around the target
//      without sending a single move packet, and is told to unload the old
//      ones.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const mc = require('minecraft-protocol')
const h = require('./helpers')
const u = require('./persist-util')

after(h.cleanupAll)

const MOVES = new Set(['position', 'position_look', 'look', 'flying'])

/** A raw client that confirms teleports and records chunks, centres, unloads and what it sent. */
function rawClient (port, username) {
  const c = mc.createClient({ host: '127.0.0.1', port, username, version: '1.20.1', auth: 'offline' })
  const r = { c, chunks: new Set(), centres: [], unloads: [], sentMoves: 0, ended: null, kick: null }
  c.on('map_chunk', (p) => r.chunks.add(`${p.x},${p.z}`))
  c.on('update_view_position', (p) => r.centres.push([p.chunkX, p.chunkZ]))
  c.on('unload_chunk', (p) => r.unloads.push([p.chunkX, p.chunkZ]))
  c.on('position', (p) => c.write('teleport_confirm', { teleportId: p.teleportId }))
  c.on('kick_disconnect', (p) => { r.kick = typeof p.reason === 'string' ? p.reason : JSON.stringify(p.reason) })
  c.on('end', (why) => { r.ended = String(why) })
  c.on('error', () => {})
  const write = c.write.bind(c)
  c.write = (name, params) => { if (MOVES.has(name)) r.sentMoves++; return write(name, params) }
  return r
}

test('a plugin message over 32767 bytes of data is refused as vanilla refuses it; 32767 is accepted', { timeout: 30000 }, async () => {
  await h.withServer({ name: 'payload', props: { 'view-distance': '2' } }, async (srv) => {
    const ok = rawClient(srv.port, 'PayloadOk')
    await h.waitFor(() => ok.chunks.size >= 9, { timeout: 10000, message: 'PayloadOk joined' })
    ok.c.write('custom_payload', { channel: 'mcserv:test', data: Buffer.alloc(32767, 1) })
    await h.sleep(1000)
    assert.equal(ok.ended, null, 'the connection stays open with 32767 bytes')

    const big = rawClient(srv.port, 'PayloadBig')
    await h.waitFor(() => big.chunks.size >= 9, { timeout: 10000, message: 'PayloadBig joined' })
    big.c.write('custom_payload', { channel: 'mcserv:test', data: Buffer.alloc(40000, 1) })
    await h.waitFor(() => big.ended !== null, { timeout: 5000, message: 'PayloadBig is disconnected' })
    assert.match(big.kick || '', /Payload may not be larger than 32767 bytes/, `kick: ${big.kick}`)
    assert.equal(ok.ended, null, 'the other player stays')
    ok.c.end()
  })
})

test('after /tp the chunk window moves at once, without a move packet from the client', { timeout: 30000 }, async () => {
  await h.withServer({ name: 'tpwindow', props: { 'view-distance': '3' } }, async (srv) => {
    u.attachConsole(srv)
    const r = rawClient(srv.port, 'Jumper')
    await h.waitFor(() => r.chunks.size >= 49, { timeout: 10000, message: '49 chunks around the spawn', detail: () => `${r.chunks.size} chunks` })
    const before = new Set(r.chunks)
    srv.send('tp Jumper 1000.5 -60 1000.5')
    await h.waitFor(() => r.centres.some(([x, z]) => x === 62 && z === 62), { timeout: 5000, message: 'Set Center Chunk 62, 62', detail: () => JSON.stringify(r.centres) })
    const near = []
    for (let dx = -3; dx <= 3; dx++) for (let dz = -3; dz <= 3; dz++) near.push(`${62 + dx},${62 + dz}`)
    await h.waitFor(() => near.every((k) => r.chunks.has(k)), {
      timeout: 10000,
      message: 'the 49 chunks around the target',
      detail: () => `${near.filter((k) => r.chunks.has(k)).length} of 49`
    })
    assert.equal(r.sentMoves, 0, 'the client never moved')
    const unloaded = new Set(r.unloads.map(([x, z]) => `${x},${z}`))
    assert.ok([...before].every((k) => unloaded.has(k)), `every chunk around the spawn is unloaded (${unloaded.size} of ${before.size})`)
    r.c.end()
  })
})
