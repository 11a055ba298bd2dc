'use strict'
// Shared by the issue-14 health tests (health.test.js, health-hunger.test.js,
// health-env.test.js): the server properties, teleports, landing, walking,
// a clean stop, and a fix for mineflayer's reading of Set Entity Velocity.
// Every wait is bounded (helpers.waitFor).
const assert = require('node:assert/strict')
const h = require('./helpers')
const mp = require('./mp-helpers')

const PROPS = { 'level-type': 'flat', gamemode: 'survival', 'view-distance': '3', 'spawn-protection': '0', difficulty: 'normal' }

/**
 * mineflayer 4.25 reads Set Entity Velocity as velocityX/Y/Z, but the
 * minecraft-data installed with it decodes the packet as { velocity: {x, y, z} }:
 * the bot's own velocity becomes NaN, and so does the position it sends (which
 * the server refuses as an invalid move). The fields are copied over before
 * mineflayer's listener sees the packet.
 */
function fixVelocityPackets (bot) {
  bot._client.prependListener('entity_velocity', (p) => {
    if (p.velocity && p.velocityX === undefined) {
      p.velocityX = p.velocity.x
      p.velocityY = p.velocity.y
      p.velocityZ = p.velocity.z
    }
  })
}

const items = (bot) => Object.values(bot.entities).filter((e) => e.name === 'item')

/** Stops the server: it exits 0 and printed no sanitizer report (ASan/UBSan builds). */
async function stopClean (srv) {
  const info = await srv.stop()
  assert.equal(info.code, 0, `mcserv exits 0 on SIGTERM: ${JSON.stringify(info)}`)
  assert.doesNotMatch(srv.output(), /AddressSanitizer|LeakSanitizer|runtime error:/, 'no sanitizer report')
}

/** Teleports the bot (console /tp) and waits until its client is there. */
async function tp (srv, bot, x, y, z) {
  mp.consoleCmd(srv, `tp ${bot.username} ${x} ${y} ${z}`)
  await h.waitFor(() => Math.abs(bot.entity.position.x - x) < 0.01 && Math.abs(bot.entity.position.z - z) < 0.01 &&
    Math.abs(bot.entity.position.y - y) < 1.5, { timeout: 5000, message: `${bot.username} teleported to ${x} ${y} ${z}` })
}

/** Waits until the bot stands on the ground again and its health settled. */
async function landed (bot, timeout = 6000) {
  await h.sleep(300)
  await h.waitFor(() => bot.entity.onGround, { timeout, message: `${bot.username} landed` })
  await h.sleep(300)
}

module.exports = { PROPS, fixVelocityPackets, items, walkTo: h.walkTo, stopClean, tp, landed }
