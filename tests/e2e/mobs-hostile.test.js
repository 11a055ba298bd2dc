'use strict'
// Issue 15, hostile mobs, what a player notices:
//   1. (acceptance 1) at night a survival bot stands in a dark stone box; a
//      wall with a slit at eye height stands between it and a zombie
//      summoned inside the box: the zombie sees the bot through the slit but
//      cannot walk (or jump) through, so it walks around the wall's end (its
//      x passes the end of the wall), the distance shrinks, it reaches the
//      bot and hurts it (health drops, death message kind mob_attack).
//      Meanwhile monsters spawn naturally on the dark flat world outside: a
//      hostile mob the test did not summon appears in bot.entities within
//      60 s. Then `difficulty peaceful`: every hostile mob disappears and
//      none appears in the next 20 s.
//   2. (acceptance 4) a skeleton summoned 10 blocks from survival bot A
//      shoots it: A and a creative watcher B both see arrow entities, and
//      A's health drops.
// Every wait is bounded; both servers must exit 0 with no sanitizer report.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const u = require('./persist-util')
const { fixVelocityPackets, stopClean, landed } = require('./health-helpers')

h.setFileDeadline(170000)

after(async () => {
  await h.cleanupAll()
  await u.cleanup()
})

const HOSTILE = ['zombie', 'skeleton', 'spider', 'creeper', 'slime', 'enderman', 'witch', 'zombie_villager']

async function rconServer (name, extra = {}) {
  const r = await h.flatRconServer(name, Object.assign({ difficulty: 'normal', 'view-distance': '5' }, extra))
  u.attachConsole(r.srv)
  return r
}

const hostiles = (bot) => Object.values(bot.entities).filter((e) => HOSTILE.includes(e.name))

async function cmd (rcon, line, re) {
  const out = (await rcon.execute(line)).trim()
  if (re) assert.match(out, re, `${line}: ${out}`)
  return out
}

test('a zombie walks around a wall to a bot in a dark box and hurts it; natural spawns; peaceful clears them', { timeout: 150000 }, async (t) => {
  const { srv, rcon } = await rconServer('hostile-zombie')
  let A
  try {
    await cmd(rcon, 'time set midnight', /Set the time/)
    A = await h.makeBot(srv.port, 'Camper').waitSpawn(15000)
    const a = A.bot
    fixVelocityPackets(a)
    await landed(a)
    const p = a.entity.position.floored()
    const x = p.x
    const y = p.y
    const z = p.z
    // The box: stone shell x-6..x+6, z-6..z+6, y-1..y+3 (floor, 3 high room, roof).
    await cmd(rcon, `fill ${x - 6} ${y - 1} ${z - 6} ${x + 6} ${y + 3} ${z + 6} stone hollow`, /filled/)
    // The bot stands on the -z side of the wall, the zombie will on the +z side.
    await cmd(rcon, `tp Camper ${x + 0.5} ${y} ${z - 2 + 0.5}`)
    await h.waitFor(() => Math.abs(a.entity.position.z - (z - 1.5)) < 0.1, { timeout: 5000, message: 'Camper moved behind the wall' })
    await landed(a)
    // The wall across z = z, from x-5 to x+1: solid at the feet and above the
    // head, a slit at eye height (the zombie sees through it, cannot pass).
    await cmd(rcon, `fill ${x - 5} ${y} ${z} ${x + 1} ${y} ${z} stone`, /filled/)
    await cmd(rcon, `fill ${x - 5} ${y + 2} ${z} ${x + 1} ${y + 2} ${z} stone`, /filled/)
    const natural = new Set()
    const summonedIds = new Set()
    a.on('entitySpawn', (e) => { if (HOSTILE.includes(e.name)) natural.add(e.id) })
    const health0 = a.health
    await cmd(rcon, `summon zombie ${x + 0.5} ${y} ${z + 2 + 0.5}`, /Summoned new Zombie/)
    await h.waitFor(() => hostiles(a).some((e) => e.name === 'zombie' && e.position.distanceTo(a.entity.position) < 6), {
      timeout: 5000, message: 'Camper sees the zombie'
    })
    const zombie = hostiles(a).filter((e) => e.name === 'zombie').sort((e1, e2) => e1.position.distanceTo(a.entity.position) - e2.position.distanceTo(a.entity.position))[0]
    summonedIds.add(zombie.id)
    const d0 = zombie.position.distanceTo(a.entity.position)
    let maxX = zombie.position.x
    let minD = d0
    const track = setInterval(() => {
      maxX = Math.max(maxX, zombie.position.x)
      minD = Math.min(minD, zombie.position.distanceTo(a.entity.position))
    }, 100)
    try {
      // Within 10 s the distance shrinks by going around the wall's end (x + 2).
      await h.waitFor(() => minD < d0 - 1 && maxX > x + 2, {
        timeout: 10000, message: () => `the zombie comes around the wall (d0 ${d0.toFixed(2)}, min ${minD.toFixed(2)}, max x ${maxX.toFixed(2)} vs wall end ${x + 2})`
      })
      await h.waitFor(() => a.health < health0, {
        timeout: 15000, message: () => `the zombie hurts Camper (health ${a.health}, zombie at ${zombie.position}, bot at ${a.entity.position})`
      })
    } finally {
      clearInterval(track)
    }
    assert.ok(maxX > x + 2, 'it walked around the end of the wall, not through it')
    // Natural spawning: a monster the test did not summon, within 60 s of the night starting.
    await h.waitFor(() => [...natural].some((id) => !summonedIds.has(id)), {
      timeout: 45000, message: () => `a naturally spawned monster appears (saw ${[...natural].length})`
    })
    // Peaceful: every hostile mob goes, none comes back in 20 s.
    await cmd(rcon, 'difficulty peaceful', /The difficulty has been set to Peaceful/)
    await h.waitFor(() => hostiles(a).length === 0, { timeout: 3000, message: () => `hostile mobs despawn on peaceful (still ${hostiles(a).map((e) => e.name)})` })
    const seenAfter = []
    const onSpawn = (e) => { if (HOSTILE.includes(e.name)) seenAfter.push(e.name) }
    a.on('entitySpawn', onSpawn)
    await h.sleep(20000)
    a.removeListener('entitySpawn', onSpawn)
    assert.deepEqual(seenAfter, [], 'no hostile mob spawns on peaceful')
    assert.equal(hostiles(a).length, 0)
  } finally {
    rcon.close()
    if (A) await A.quit(2000)
  }
  await stopClean(srv)
  // The server's own count at shutdown: the zombie's searches and their times, the natural spawns.
  const m = /Mobs: (\d+) pathfinding searches \((\d+) nodes\), median ([\d.]+) us, p99 ([\d.]+) us; (\d+) monsters spawned naturally/.exec(srv.output())
  assert.ok(m, 'the pathfinding and spawning figures are logged at shutdown')
  assert.ok(Number(m[1]) > 0 && Number(m[5]) > 0, m[0])
  t.diagnostic(m[0])
})

test('a skeleton shoots a bot: both bots see the arrows, the hit costs health', { timeout: 90000 }, async () => {
  const { srv, rcon } = await rconServer('hostile-skeleton')
  let A, B
  try {
    await cmd(rcon, 'time set midnight', /Set the time/)
    await cmd(rcon, 'gamerule doMobSpawning false', /doMobSpawning is now set to: false/)
    A = await h.makeBot(srv.port, 'Target').waitSpawn(15000)
    B = await h.makeBot(srv.port, 'Watcher').waitSpawn(15000)
    const a = A.bot
    const b = B.bot
    fixVelocityPackets(a)
    fixVelocityPackets(b)
    await cmd(rcon, 'gamemode creative Watcher')
    await landed(a)
    const p0 = a.entity.position
    await cmd(rcon, `tp Watcher ${p0.x.toFixed(2)} ${p0.y.toFixed(2)} ${(p0.z + 6).toFixed(2)}`) // out of the line of fire
    await h.waitFor(() => b.entity.position.distanceTo(p0) > 5, { timeout: 5000, message: 'Watcher moved aside' })
    await landed(b)
    const arrowsA = new Set()
    const arrowsB = new Set()
    a.on('entitySpawn', (e) => { if (e.name === 'arrow') arrowsA.add(e.id) })
    b.on('entitySpawn', (e) => { if (e.name === 'arrow') arrowsB.add(e.id) })
    const health0 = a.health
    const p = a.entity.position
    await cmd(rcon, `summon skeleton ${(p.x + 10).toFixed(2)} ${p.y.toFixed(2)} ${p.z.toFixed(2)}`, /Summoned new Skeleton/)
    await h.waitFor(() => hostiles(b).some((e) => e.name === 'skeleton'), { timeout: 5000, message: 'Watcher sees the skeleton' })
    await h.waitFor(() => a.health < health0, {
      timeout: 40000, message: () => `an arrow hurts Target (health ${a.health}; arrows seen by A ${arrowsA.size}, by B ${arrowsB.size})`
    })
    await h.waitFor(() => arrowsA.size > 0 && arrowsB.size > 0, {
      timeout: 5000, message: () => `both bots saw arrows (A ${arrowsA.size}, B ${arrowsB.size})`
    })
    const shared = [...arrowsA].filter((id) => arrowsB.has(id))
    assert.ok(shared.length > 0, 'the same arrow entity seen by both')
    assert.ok(a.health <= health0 - 1, `the hit cost health (${health0} -> ${a.health})`)
  } finally {
    rcon.close()
    await Promise.all([A, B].filter(Boolean).map((x) => x.quit(2000)))
  }
  await stopClean(srv)
})
