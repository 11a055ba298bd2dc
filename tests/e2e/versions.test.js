'use strict'
// Issue 22: a second client version beside 1.20.1. minecraft-protocol (its
// pinned 1.68 speaks 26.1) plays the 26.1 client: status at both protocol
// numbers, the configuration state with every registry, the join, chat both
// ways with a 1.20.1 mineflayer bot, and the disconnect an unsupported
// version gets. (mineflayer at 26.1 needs the pin bump noted in issue 22.)
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const mc = require('minecraft-protocol')
const h = require('./helpers')

after(h.cleanupAll)

const props = { 'level-type': 'flat', 'view-distance': '2', motd: 'versions e2e' }

function ping (port, version) {
  return h.withTimeout(mc.ping({ host: '127.0.0.1', port, version }), 5000, `ping as ${version}`)
}

test('status answers each supported client with its own version, an unknown one with the nearest', { timeout: 30000 }, async () => {
  await h.withServer({ name: 'versions-status', props }, async (srv) => {
    const old = await ping(srv.port, '1.20.1')
    assert.equal(old.version.protocol, 763, JSON.stringify(old))
    assert.equal(old.version.name, '1.20.1')
    const nu = await ping(srv.port, '26.1')
    assert.equal(nu.version.protocol, 775, JSON.stringify(nu))
    assert.equal(nu.version.name, '26.1')
    assert.equal(nu.description.text, 'versions e2e')
    // minecraft-server-util pings as protocol 47: older than both, so 1.20.1.
    const msu = await h.statusUtil(srv.port)
    assert.equal(msu.version.protocol, 763)
  })
})

test('an unsupported version is refused at login with the versions the server speaks', { timeout: 30000 }, async () => {
  await h.withServer({ name: 'versions-refuse', props }, async (srv) => {
    const c = mc.createClient({ host: '127.0.0.1', port: srv.port, username: 'Old1214', version: '1.21.4', auth: 'offline' })
    const reason = await h.withTimeout(new Promise((resolve) => {
      c.on('disconnect', (p) => resolve(p.reason))
      c.on('error', () => {})
    }), 10000, 'the login disconnect')
    assert.match(reason, /1\.20\.1, 26\.1/, reason)
    assert.match(reason, /outdated_client/, reason)
  })
})

test('a 26.1 client configures, joins and chats with a 1.20.1 bot', { timeout: 60000 }, async () => {
  await h.withServer({ name: 'versions-join', props }, async (srv) => {
    const old = h.makeBot(srv.port, 'Old1201')
    await old.waitSpawn(15000)
    const seen = { registries: [], packets: new Set(), chat: [], errors: [] }
    const c = mc.createClient({ host: '127.0.0.1', port: srv.port, username: 'New261', version: '26.1', auth: 'offline' })
    c.on('error', (e) => seen.errors.push(String(e && e.stack)))
    c.on('registry_data', (p) => seen.registries.push(p.id))
    c.on('packet', (d, meta) => seen.packets.add(`${meta.state}/${meta.name}`))
    c.on('system_chat', (p) => seen.chat.push(JSON.stringify(p.content)))
    let login = null
    c.on('login', (p) => { login = p })
    c.on('position', (p) => c.write('teleport_confirm', { teleportId: p.teleportId }))
    const describe = () => `packets: ${[...seen.packets].join(' ')}\nerrors: ${seen.errors.join('\n')}\n` +
      `server:\n${h.tail(srv.output(), 3000)}`
    await h.waitFor(() => login, { timeout: 15000, message: () => 'Login (play) at 26.1\n' + describe() })
    // Every registry of vanilla 26.1 came with its data before PLAY.
    for (const id of ['minecraft:dimension_type', 'minecraft:worldgen/biome', 'minecraft:damage_type', 'minecraft:enchantment']) {
      assert.ok(seen.registries.includes(id), `registry ${id}: got ${seen.registries.join(', ')}`)
    }
    assert.equal(login.worldState.name, 'minecraft:overworld')
    assert.equal(login.worldState.seaLevel, -63, 'a flat world tells vanilla\'s flat sea level')
    await h.waitFor(() => seen.packets.has('play/game_state_change') && seen.packets.has('play/position'), {
      timeout: 10000, message: () => 'the loading event and the position\n' + describe()
    })
    // Chat: 26.1 -> 1.20.1 and back; the join line reached the 26.1 client as NBT text.
    await h.waitFor(() => seen.chat.some((t) => t.includes('New261')), { timeout: 10000, message: () => 'the join line\n' + describe() })
    const heard = new Promise((resolve) => old.bot.on('messagestr', (m) => { if (m.includes('from 26.1')) resolve(m) }))
    c.write('chat_message', { message: 'hello from 26.1', timestamp: BigInt(Date.now()), salt: 0n, offset: 0, acknowledged: Buffer.alloc(3), checksum: 0 })
    const line = await h.withTimeout(heard, 10000, 'the 1.20.1 bot hears the 26.1 player')
    assert.match(line, /New261/)
    old.bot.chat('hello from 1.20.1')
    await h.waitFor(() => seen.chat.some((t) => t.includes('hello from 1.20.1')), {
      timeout: 10000, message: () => 'the 26.1 client hears the 1.20.1 bot\n' + describe()
    })
    // Not one packet failed to parse at the 26.1 client.
    assert.deepEqual(seen.errors, [], describe())
    c.end()
    await old.quit()
  })
})
