'use strict'
// Issue #18 acceptance 2: a tile of a known flat world has the colours of
// its top block, and a block a bot places changes the tile within a few
// seconds. Also: every zoom level answers with a 256×256 PNG, a tile where
// nothing was generated is 204 and generates nothing, and bad tile paths
// are 404. Expected colours come from src/data/map_colors.c (generated
// from vanilla's textures by tools/gen_data.js).
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const http = require('node:http')
const h = require('./helpers')
const u = require('./persist-util')
const { decodePng } = require('../../tools/map_colors.js')

after(async () => { await u.cleanup(); await h.cleanupAll() })
const since = h.mark()

// block name -> 0xRRGGBB, from the generated table.
function tableColours () {
  const text = fs.readFileSync(path.join(h.REPO_ROOT, 'src', 'data', 'map_colors.c'), 'utf8')
  const out = {}
  for (const m of text.matchAll(/0x([0-9a-f]{8}), \/\* \d+ (\w+):/g)) out[m[2]] = parseInt(m[1], 16) & 0xffffff
  return out
}

function get (port, p) {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: p }, (res) => {
      const parts = []
      res.on('data', (d) => parts.push(d))
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(parts) }))
    }).on('error', reject)
  })
}

// A tile once it is drawn (202 means: being drawn, ask again).
async function tile (port, zoom, x, z, timeout = 10000) {
  let last
  await h.waitFor(async () => {
    last = await get(port, `/map/tiles/${zoom}/${x}/${z}.png`)
    return last.status !== 202
  }, { timeout, interval: 200, message: `tile ${zoom}/${x}/${z}`, detail: () => String(last && last.status) })
  return last
}

const rgbAt = (img, x, y) => {
  const o = (y * img.width + x) * 4
  return [img.pixels[o], img.pixels[o + 1], img.pixels[o + 2], img.pixels[o + 3]]
}
const hex = (c) => '#' + ((c[0] << 16) | (c[1] << 8) | c[2]).toString(16).padStart(6, '0')

test('a flat world\'s tile has its top block\'s colour, and a placed block shows within seconds', { timeout: 60000 }, async (t) => {
  const colours = tableColours()
  assert.ok(colours.grass_block && colours.red_wool, 'the generated table has grass_block and red_wool')
  const httpPort = await h.freePort()
  await h.withServer({ name: 'map', props: { 'admin-http-port': httpPort, 'view-distance': 3, gamemode: 'creative' } }, async (srv) => {
    u.attachConsole(srv)
    const A = h.makeBot(srv.port, 'Mapper')
    await A.waitSpawn(15000)
    const a = A.bot
    a.game.gameMode = 'creative'
    const base = a.entity.position.floored()
    const pos = base.offset(2, 0, 1)
    await u.waitColumn(a, pos)

    // The tile under the bot: flat grass, every drawn pixel the table's grass colour.
    // The first drawing may come while the bot's chunks are still being generated (a loaded
    // machine, ASan): the tile is re-drawn as they arrive, so ask until they are all in it.
    const tx = Math.floor(pos.x / 256), tz = Math.floor(pos.z / 256)
    let r, img, counts, opaque
    await h.waitFor(async () => {
      r = await tile(httpPort, 0, tx, tz)
      if (r.status !== 200) return false
      img = decodePng(r.body)
      counts = new Map()
      opaque = 0
      for (let i = 0; i < img.pixels.length; i += 4) {
        if (img.pixels[i + 3] === 0) continue
        opaque++
        const k = hex([img.pixels[i], img.pixels[i + 1], img.pixels[i + 2]])
        counts.set(k, (counts.get(k) || 0) + 1)
      }
      return opaque >= 16 * 16 * 9
    }, { timeout: 10000, interval: 300, message: 'the loaded chunks are drawn', detail: () => `status ${r && r.status}, ${opaque} opaque pixels` })
    assert.equal(r.status, 200)
    assert.equal(r.headers['content-type'], 'image/png')
    assert.equal(img.width, 256)
    assert.equal(img.height, 256)
    const want = '#' + colours.grass_block.toString(16).padStart(6, '0')
    const [top, n] = [...counts.entries()].sort((x, y) => y[1] - x[1])[0]
    t.diagnostic(`tile ${tx},${tz}: ${opaque} opaque pixels, ${counts.size} colours, most ${top} (${n}); grass_block ${want}`)
    assert.ok(opaque >= 16 * 16 * 9, 'the loaded chunks are drawn')
    assert.equal(top, want, 'the tile is the colour of grass_block')
    assert.ok(n / opaque > 0.99, 'a flat world is one colour')
    const px = ((pos.x % 256) + 256) % 256, pz = ((pos.z % 256) + 256) % 256
    assert.equal(hex(rgbAt(img, px, pz)), want)

    // A red wool block where the bot can reach: the tile follows.
    await u.placeAt(a, pos, 'red_wool')
    const t0 = Date.now()
    let seen
    await h.waitFor(async () => {
      const r2 = await get(httpPort, `/map/tiles/0/${tx}/${tz}.png`)
      if (r2.status !== 200) return false
      seen = rgbAt(decodePng(r2.body), px, pz)
      return hex(seen) !== want
    }, { timeout: 5000, interval: 200, message: 'the tile shows the placed block', detail: () => seen && hex(seen) })
    t.diagnostic(`placed block drawn after ${Date.now() - t0} ms as ${hex(seen)}`)
    assert.ok(seen[0] > seen[1] + 40 && seen[0] > seen[2] + 40, `red wool is red on the map (${hex(seen)})`)
    // It stands one block above the grass: shaded brighter than the table colour, as vanilla's maps do.
    const wool = [colours.red_wool >> 16, (colours.red_wool >> 8) & 255, colours.red_wool & 255]
    for (let k = 0; k < 3; k++) assert.equal(seen[k], Math.min(255, Math.floor(wool[k] * 255 / 220)))

    // Every zoom answers with a 256×256 PNG that has the terrain.
    for (let zoom = 1; zoom < 4; zoom++) {
      const rz = await tile(httpPort, zoom, Math.floor(pos.x / (256 << zoom)), Math.floor(pos.z / (256 << zoom)), 15000)
      assert.equal(rz.status, 200, `zoom ${zoom}`)
      const iz = decodePng(rz.body)
      assert.equal(iz.width, 256)
      let any = 0
      for (let i = 3; i < iz.pixels.length; i += 4) any += iz.pixels[i] ? 1 : 0
      assert.ok(any >= opaque / 4 ** zoom, `zoom ${zoom} draws the loaded chunks (${any} pixels)`)
    }

    // Far away nothing was generated: 204, and asking generated nothing.
    const before = JSON.parse((await get(httpPort, '/api/status')).body)
    const far = await tile(httpPort, 0, 40, 40)
    assert.equal(far.status, 204)
    const after = JSON.parse((await get(httpPort, '/api/status')).body)
    assert.ok(after.world.loaded_chunks <= before.world.loaded_chunks, 'rendering loaded no chunk')
    assert.equal(fs.existsSync(path.join(srv.dir, 'world', 'region', 'r.320.320.mca')), false, 'and created no region file')

    for (const bad of ['/map/tiles/4/0/0.png', '/map/tiles/0/0/0.jpg', '/map/tiles/0/x/0.png', '/map/tiles/0/999999/0.png']) {
      assert.equal((await get(httpPort, bad)).status, 404, bad)
    }
    const st = after.map
    assert.ok(st.renders >= 5 && st.tiles >= 5, `map figures in /api/status: ${JSON.stringify(st)}`)
    await A.quit()
  })
  h.assertNoClientProtocolErrors(assert, since)
})
