#!/usr/bin/env node
'use strict'
// gen_play_corpus.js — writes the seed corpus of fuzz_play (tests/fuzz/corpus/play/):
// one input per serverbound packet type of every state, encoded by
// minecraft-protocol's own serializer (so the seeds are what a real client
// sends), in the harness's layout (see the top of fuzz_play.c):
//   [options][piece][bytes]            raw mode: frames as on the socket
//   [options | 8][0][u16 len, packet]* records mode: the harness frames them
// Run it again after a protocol change: node tests/fuzz/gen_play_corpus.js
const fs = require('node:fs')
const path = require('node:path')
const mc = require('minecraft-protocol')

const OUT = path.join(__dirname, 'corpus', 'play')
const VERSION = '1.20.1'
const ser = (state) => mc.createSerializer({ state, isServer: false, version: VERSION })
const enc = (state, name, params) => ser(state).createPacketBuffer({ name, params })

function varInt (v) {
  const out = []
  v >>>= 0
  do {
    let b = v & 0x7f
    v >>>= 7
    if (v) b |= 0x80
    out.push(b)
  } while (v)
  return Buffer.from(out)
}
const frame = (pkt) => Buffer.concat([varInt(pkt.length), pkt])
const records = (pkts) => Buffer.concat(pkts.map((p) => {
  const h = Buffer.alloc(2)
  h.writeUInt16BE(p.length)
  return Buffer.concat([h, p])
}))

const seeds = {}
const raw = (name, opt, bytes, piece = 0) => { seeds[name] = Buffer.concat([Buffer.from([opt, piece]), bytes]) }
const rec = (name, opt, pkts) => { seeds[name] = Buffer.concat([Buffer.from([opt | 8, 0]), records(pkts)]) }

// --- handshake, status, login (raw frames) ---
const hs = (next, host = 'localhost') => enc('handshaking', 'set_protocol', { protocolVersion: 763, serverHost: host, serverPort: 25565, nextState: next })
const loginStart = enc('login', 'login_start', { username: 'Seed', playerUUID: undefined })
raw('hs-status', 0, Buffer.concat([frame(hs(1)), frame(enc('status', 'ping_start', {})), frame(enc('status', 'ping', { time: [0, 42] }))]))
raw('hs-status-pieces', 0, Buffer.concat([frame(hs(1)), frame(enc('status', 'ping_start', {}))]), 3)
raw('hs-login', 0, Buffer.concat([frame(hs(2)), frame(loginStart)]))
raw('hs-bad-next', 0, frame(hs(3)))
raw('hs-legacy-ping', 0, Buffer.from('fe01fa000b004d0043007c00500069006e00670048006f00730074', 'hex'))
raw('hs-proxy-v1', 0x80, Buffer.concat([Buffer.from('PROXY TCP4 192.0.2.1 192.0.2.2 4321 25565\r\n'), frame(hs(2)), frame(loginStart)]))
raw('hs-bungee-host', 0, frame(hs(2, 'localhost\u0000192.0.2.1\u00000123456789abcdef0123456789abcdef\u0000[]')))
raw('status-only', 1, Buffer.concat([frame(enc('status', 'ping_start', {})), frame(enc('status', 'ping', { time: [1, 2] }))]))
raw('login-start', 2, frame(loginStart))
raw('login-encryption', 2, frame(enc('login', 'encryption_begin', { sharedSecret: Buffer.alloc(128, 1), verifyToken: Buffer.alloc(128, 2) })))
raw('login-plugin', 2, frame(enc('login', 'login_plugin_response', { messageId: 1, data: Buffer.from('00', 'hex') })))

// --- play: one records-mode seed per serverbound packet ---
const P = (name, params) => enc('play', name, params)
const pos = { x: 1, y: -60, z: 2 }
const nbtItem = {
  itemId: 1,
  itemCount: 1,
  nbtData: { type: 'compound', name: '', value: { display: { type: 'compound', value: { Name: { type: 'string', value: '{"text":"x"}' } } }, list: { type: 'list', value: { type: 'int', value: [1, 2, 3] } } } }
}
const play = {
  teleport_confirm: { teleportId: 1 },
  query_block_nbt: { transactionId: 1, location: pos },
  chat_command: { command: 'help', timestamp: [0, 1], salt: [0, 2], argumentSignatures: [{ argumentName: 'm', signature: Buffer.alloc(256) }], messageCount: 0, acknowledged: Buffer.alloc(3) },
  chat_message: { message: 'hello', timestamp: [0, 1], salt: [0, 2], signature: undefined, offset: 0, acknowledged: Buffer.alloc(3) },
  set_difficulty: { newDifficulty: 'easy' },
  message_acknowledgement: { count: 1 },
  edit_book: { hand: 0, pages: ['a', 'b'], title: 'T' },
  query_entity_nbt: { transactionId: 1, entityId: 1 },
  pick_item: { slot: 1 },
  name_item: { name: 'n' },
  select_trade: { slot: 0 },
  set_beacon_effect: { primary_effect: 1, secondary_effect: undefined },
  update_command_block: { location: pos, command: 'say x', mode: 0, flags: 0 },
  update_command_block_minecart: { entityId: 1, command: 'say x', track_output: true },
  tab_complete: { transactionId: 7, text: '/gamemode c' },
  client_command: { actionId: 'perform_respawn' },
  settings: { locale: 'en_us', viewDistance: 8, chatFlags: 0, chatColors: true, skinParts: 127, mainHand: 1, enableTextFiltering: false, enableServerListing: true },
  enchant_item: { windowId: 0, enchantment: 0 },
  window_click: { windowId: 0, stateId: 0, slot: 36, mouseButton: 0, mode: 0, changedSlots: [{ location: 36, item: { present: false } }], cursorItem: { present: false } },
  close_window: { windowId: 0 },
  custom_payload: { channel: 'minecraft:brand', data: Buffer.from('\u0007vanilla') },
  use_entity: { target: 1, mouse: 1, sneaking: false },
  generate_structure: { location: pos, levels: 1, keepJigsaws: false },
  keep_alive: { keepAliveId: [0, 1] },
  lock_difficulty: { locked: true },
  position: { x: 0.5, y: -60, z: 0.5, onGround: true },
  position_look: { x: 0.5, y: -60, z: 0.5, yaw: 90, pitch: 0, onGround: true },
  look: { yaw: 0, pitch: 10, onGround: true },
  flying: { onGround: false },
  vehicle_move: { x: 0, y: 0, z: 0, yaw: 0, pitch: 0 },
  steer_boat: { leftPaddle: true, rightPaddle: false },
  craft_recipe_request: { windowId: 0, recipe: 'minecraft:stick', makeAll: false },
  abilities: { flags: 2 },
  block_dig: { status: 0, location: pos, face: 1, sequence: 1 },
  entity_action: { entityId: 1, actionId: 'start_sneaking', jumpBoost: 0 },
  steer_vehicle: { sideways: 0, forward: 1, jump: 0 },
  displayed_recipe: { recipeId: 'minecraft:stick' },
  recipe_book: { bookId: 0, bookOpen: true, filterActive: false },
  resource_pack_receive: { result: 0 },
  held_item_slot: { slotId: 3 },
  set_creative_slot: { slot: 36, item: { present: true, ...nbtItem } },
  update_jigsaw_block: { location: pos, name: 'a:b', target: 'a:c', pool: 'a:d', finalState: 'stone', jointType: 'rollable' },
  update_sign: { location: pos, isFrontText: true, text1: 'a', text2: 'b', text3: 'c', text4: 'd' },
  arm_animation: { hand: 0 },
  spectate: { target: '00000000-0000-0000-0000-000000000001' },
  block_place: { hand: 0, location: { x: 1, y: -61, z: 2 }, direction: 1, cursorX: 0.5, cursorY: 1, cursorZ: 0.5, insideBlock: false, sequence: 2 },
  use_item: { hand: 0, sequence: 3 },
  advancement_tab: { action: 1 },
  pong: { id: 1 },
  chat_session_update: { sessionUUID: '00000000-0000-0000-0000-000000000002', expireTime: [0, 1], publicKey: Buffer.alloc(8), signature: Buffer.alloc(8) }
}
const PLAY = 3
const CREATIVE = 16
const OP = 32
const TICKS = 64
const COMPRESS = 4
for (const [name, params] of Object.entries(play)) {
  let pkt
  try { pkt = P(name, params) } catch (e) { throw new Error(`${name}: ${e.message}`) }
  rec(`play-${name}`, PLAY | CREATIVE, [pkt])
}
// Combinations the handlers care about.
rec('play-op-commands', PLAY | OP | TICKS, ['gamemode creative', 'tp ~ ~10 ~', 'time set day', 'weather rain', 'kick Fuzz bye', 'say hi', 'list', 'mspt', 'msg Fuzz x', 'help', 'seed', 'setworldspawn', 'op Fuzz', 'deop Fuzz', 'kill'].map((command) =>
  P('chat_command', { command, timestamp: [0, 1], salt: [0, 2], argumentSignatures: [], messageCount: 0, acknowledged: Buffer.alloc(3) })))
rec('play-move-sequence', PLAY | TICKS, [P('teleport_confirm', { teleportId: 1 }), P('teleport_confirm', { teleportId: 2 }),
  P('position', { x: 0.5, y: -60, z: 0.5, onGround: true }), P('position', { x: 60, y: -60, z: 0.5, onGround: true }),
  P('teleport_confirm', { teleportId: 3 }), P('position', { x: 1.5, y: -60, z: 0.5, onGround: true })])
rec('play-compressed-mix', PLAY | COMPRESS | CREATIVE, [P('settings', play.settings), P('chat_message', { ...play.chat_message, message: 'x'.repeat(200) }),
  P('set_creative_slot', play.set_creative_slot), P('tab_complete', { transactionId: 1, text: '/' })])
rec('play-dig-place', PLAY | CREATIVE | TICKS, [P('teleport_confirm', { teleportId: 1 }), P('teleport_confirm', { teleportId: 2 }),
  P('held_item_slot', { slotId: 0 }), P('set_creative_slot', { slot: 36, item: { present: true, itemId: 1, itemCount: 64, nbtData: undefined } }),
  P('block_place', play.block_place), P('block_dig', play.block_dig)])

fs.mkdirSync(OUT, { recursive: true })
for (const f of fs.readdirSync(OUT)) fs.unlinkSync(path.join(OUT, f))
for (const [name, data] of Object.entries(seeds)) fs.writeFileSync(path.join(OUT, name), data)
console.log(`wrote ${Object.keys(seeds).length} seeds to ${path.relative(process.cwd(), OUT)}`)
