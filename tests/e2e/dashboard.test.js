'use strict'
// Issue #7 acceptance 4 (second half): headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core) opens the dashboard at / on
// the HTTP admin endpoint while three bots are online, and sees the players
// in the table, a non-empty TPS/MSPT chart and the map of loaded chunks
// with the players on it. The page runs under its Content-Security-Policy
// with no console error; user text (the MOTD) shows as text, never markup.
// The screenshot is kept as build/test-artifacts/dashboard.png.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const h = require('./helpers')

after(h.cleanupAll)
const since = h.mark()

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'
const ARTIFACTS = path.join(h.REPO_ROOT, 'build', 'test-artifacts')

test('the dashboard shows the players, a live TPS/MSPT chart and the chunk map', { timeout: 60000 }, async (t) => {
  assert.ok(fs.existsSync(CHROMIUM), `${CHROMIUM} is missing: tools/install-deps.sh installs Debian's chromium`)
  const { chromium } = require('playwright-core')
  const httpPort = await h.freePort()
  const motd = '<img src=x onerror="document.title=\'pwned\'">dashboard test'
  await h.withServer({ name: 'dashboard', props: { 'admin-http-port': httpPort, 'view-distance': 3, motd } }, async (srv) => {
    const names = ['DashAlice', 'DashBob', 'DashCarol']
    const bots = names.map((n) => h.makeBot(srv.port, n))
    await Promise.all(bots.map((b) => b.waitSpawn(15000)))
    // Spread them out a little so the map has something to show.
    srv.proc.stdin.write('tp DashBob 40 -60 40\ntp DashCarol -40 -60 20\n')

    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-chromium-'))
    let ctx
    try {
      ctx = await chromium.launchPersistentContext(profile, {
        executablePath: CHROMIUM,
        headless: true,
        timeout: 30000,
        viewport: { width: 1400, height: 1000 },
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
          '--disable-background-networking', '--disable-component-update', '--disable-sync']
      })
      const page = ctx.pages()[0] || await ctx.newPage()
      const problems = []
      page.on('console', (m) => { if (m.type() === 'error') problems.push(`console ${m.type()}: ${m.text()}`) })
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
      page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`))
      const resp = await page.goto(`http://127.0.0.1:${httpPort}/`, { waitUntil: 'load', timeout: 15000 })
      assert.equal(resp.status(), 200)
      // History is sampled once a second: wait for two points and all three players.
      await page.waitForFunction(() => Number(document.body.dataset.points) >= 2 && Number(document.body.dataset.players) === 3,
        null, { timeout: 15000, polling: 200 })

      const rows = await page.$$eval('#players tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)))
      assert.deepEqual(rows.map((r) => r[0]).sort(), [...names].sort(), 'the players table lists the bots')
      for (const r of rows) assert.equal(r[4], 'survival')
      assert.equal(await page.textContent('#online'), '3 / 20')
      assert.match(await page.textContent('#tps'), /^\d+\.\d$/)

      // The MOTD is text on the page, not an element.
      assert.equal(await page.textContent('#motd'), motd)
      assert.equal(await page.$$eval('img', (x) => x.length), 0)
      assert.notEqual(await page.title(), 'pwned')

      // Pixels: the TPS line (green) on the chart, chunks (dark green) and player dots (yellow) on the map.
      const count = (id, rgb) => page.evaluate(([id, rgb]) => {
        const c = document.getElementById(id)
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data
        let n = 0
        for (let i = 0; i < d.length; i += 4) {
          if (Math.abs(d[i] - rgb[0]) < 8 && Math.abs(d[i + 1] - rgb[1]) < 8 && Math.abs(d[i + 2] - rgb[2]) < 8 && d[i + 3] > 200) n++
        }
        return n
      }, [id, rgb])
      assert.ok(await count('chart', [0x3f, 0xb9, 0x50]) > 50, 'the chart draws the TPS line')
      assert.ok(await count('chart', [0x58, 0xa6, 0xff]) > 20, 'the chart draws the MSPT line')
      assert.ok(await count('map', [0x2d, 0x6a, 0x3e]) > 500, 'the map draws loaded chunks')
      assert.ok(await count('map', [0xff, 0xdf, 0x5d]) > 30, 'the map draws player dots')

      fs.mkdirSync(ARTIFACTS, { recursive: true })
      const shot = path.join(ARTIFACTS, 'dashboard.png')
      await page.screenshot({ path: shot, fullPage: true })
      assert.ok(fs.statSync(shot).size > 10000, 'screenshot written')
      t.diagnostic(`screenshot: ${path.relative(h.REPO_ROOT, shot)}`)
      assert.deepEqual(problems, [], 'no console errors, CSP violations or failed requests')
    } finally {
      if (ctx) await ctx.close().catch(() => {})
      fs.rmSync(profile, { recursive: true, force: true })
    }
    await Promise.all(bots.map((b) => b.quit()))
  })
  h.assertNoClientProtocolErrors(assert, since)
})
