'use strict'
// Issue #7 acceptance 4 (second half) and issue #18 acceptance 1: headless
// Chromium (Debian's /usr/bin/chromium, driven by playwright-core) opens the
// dashboard at / on the HTTP admin endpoint while three bots are online in
// a normal (noise) world, and the pixels show a terrain map that is not
// uniform, three player markers on it, and non-empty charts; the table pages
// list the bots and the events list their joins. The page runs under its
// Content-Security-Policy with no console error; user text (the MOTD) shows
// as text, never markup. The screenshot is kept as
// build/test-artifacts/dashboard.png.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const h = require('./helpers')

after(h.cleanupAll)
const since = h.mark()

const ARTIFACTS = path.join(h.REPO_ROOT, 'build', 'test-artifacts')

test('the dashboard shows the players, live charts, events and the terrain map with the players on it', { timeout: 150000 }, async (t) => {
  const httpPort = await h.freePort()
  const motd = '<img src=x onerror="document.title=\'pwned\'">dashboard test'
  await h.withServer({ name: 'dashboard', props: { 'admin-http-port': httpPort, 'view-distance': 5, motd, 'level-type': 'normal', 'level-seed': '12345' } }, async (srv) => {
    const names = ['DashAlice', 'DashBob', 'DashCarol']
    const bots = names.map((n) => h.makeBot(srv.port, n))
    await Promise.all(bots.map((b) => b.waitSpawn(15000)))
    // Spread them out a little (markers apart), looking different ways, high above the terrain.
    srv.proc.stdin.write('tp DashBob 40 150 40 90 0\ntp DashCarol -40 150 20 180 0\ntp DashAlice 0 150 -30 0 0\n')

    const { page, problems, close } = await h.chromiumPage({ width: 1400, height: 1000 })
    try {
      const resp = await page.goto(`http://127.0.0.1:${httpPort}/`, { waitUntil: 'load', timeout: 15000 })
      assert.equal(resp.status(), 200)
      // History is sampled once a second: wait for five points, three markers drawn and map tiles.
      // Up to 60 s: under the ASan build beside the other pass, the bots'
      // vanilla terrain (and so the first tile) can take most of that.
      await page.waitForFunction(() => Number(document.body.dataset.points) >= 5 && Number(document.body.dataset.players) === 3 &&
        Number(document.body.dataset.tiles) >= 1 && Number(document.body.dataset.rows) === 3,
      null, { timeout: 60000, polling: 200 }).catch(async (e) => {
        const d = await page.evaluate(() => ({ ...document.body.dataset })).catch(() => ({}))
        throw new Error(`${e.message}; the page had ${JSON.stringify(d)} (wanted points >= 5, players 3, tiles >= 1, rows 3)`)
      })

      const rows = await page.$$eval('#players tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)))
      assert.deepEqual(rows.map((r) => r[0]).sort(), [...names].sort(), 'the players table lists the bots')
      for (const r of rows) assert.equal(r[4], 'survival')
      assert.equal(await page.textContent('#online'), '3 / 20')
      assert.match(await page.textContent('#tps'), /^\d+\.\d$/)
      assert.match(await page.textContent('#mspt'), /(µs|ms) \/ /)
      // The events list the joins.
      const ev = await page.$$eval('#events li', (lis) => lis.map((li) => li.textContent))
      for (const n of names) assert.ok(ev.some((e) => e.includes('join') && e.includes(n)), `a join event for ${n}: ${ev.join(' | ')}`)

      // The MOTD is text on the page, not an element.
      assert.equal(await page.textContent('#motd'), motd)
      assert.equal(await page.$$eval('img', (x) => x.length), 0)
      assert.notEqual(await page.title(), 'pwned')

      // Zoom in once (2 px a block) so the bots' loaded chunks fill most of the map, and let its tiles come.
      await page.click('#zin')
      await page.waitForFunction(() => Number(document.body.dataset.tiles) >= 2, null, { timeout: 15000, polling: 200 })
      await h.sleep(2500)

      // Pixels of a canvas: pixels near rgb, and distinct colours (4 bits a channel).
      const stats = (id, rgb) => page.evaluate(([id, rgb]) => {
        const c = document.getElementById(id)
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data
        let near = 0
        const colours = new Set()
        const bg = [0x10, 0x13, 0x1a]
        let painted = 0
        for (let i = 0; i < d.length; i += 4) {
          if (Math.abs(d[i] - rgb[0]) < 8 && Math.abs(d[i + 1] - rgb[1]) < 8 && Math.abs(d[i + 2] - rgb[2]) < 8 && d[i + 3] > 200) near++
          colours.add((d[i] >> 4) << 8 | (d[i + 1] >> 4) << 4 | (d[i + 2] >> 4))
          if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 12) painted++
        }
        return { near, colours: colours.size, painted: painted / (d.length / 4) }
      }, [id, rgb])
      assert.ok((await stats('c-tps', [0x3f, 0xb9, 0x50])).near > 50, 'the TPS chart draws its line')
      assert.ok((await stats('c-mspt', [0x58, 0xa6, 0xff])).near > 20, 'the MSPT chart draws its median')
      assert.ok((await stats('c-players', [0xff, 0xdf, 0x5d])).near > 20, 'the players chart draws its line')
      assert.ok((await stats('c-rss', [0xbc, 0x8c, 0xff])).near > 20, 'the memory chart draws its line')
      // Vanilla terrain takes ~8 ms a chunk: the view fills in over seconds, and the page re-fetches its tiles.
      let map = null
      await h.waitFor(async () => {
        map = await stats('map', [0xff, 0xdf, 0x5d])
        return map.painted > 0.3 && map.colours > 40
      }, { timeout: 30000, interval: 1000, message: 'terrain covers the map', detail: () => JSON.stringify(map) }).catch(() => {})
      t.diagnostic(`map: ${JSON.stringify(map)}`)
      assert.ok(map.painted > 0.3, `terrain covers the map (${map.painted})`)
      assert.ok(map.colours > 40, `the terrain is not uniform (${map.colours} colours)`)
      assert.ok(map.near > 3 * 40, `three player markers (${map.near} marker pixels)`)

      fs.mkdirSync(ARTIFACTS, { recursive: true })
      const shot = path.join(ARTIFACTS, 'dashboard.png')
      await page.screenshot({ path: shot, fullPage: true })
      assert.ok(fs.statSync(shot).size > 10000, 'screenshot written')
      t.diagnostic(`screenshot: ${path.relative(h.REPO_ROOT, shot)}`)
      assert.deepEqual(problems, [], 'no console errors, CSP violations or failed requests')
    } finally {
      await close()
    }
    await Promise.all(bots.map((b) => b.quit()))
  })
  h.assertNoClientProtocolErrors(assert, since)
})
