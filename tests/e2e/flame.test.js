'use strict'
// Issue 16 acceptance 5: the dashboard's "Profile" button runs a 10 s CPU
// profile (/debug/pprof/profile?seconds=10&format=collapsed) and draws it
// in the page as a flame graph: headless Chromium (Debian's chromium,
// driven by playwright-core, as dashboard.test.js) clicks it while 50 bots
// walk, and the page ends up with an SVG of at least 20 frames, under the
// page's Content-Security-Policy, without console errors; a click zooms
// into a frame. The screenshot is kept as build/test-artifacts/flame.png
// (its size is checked, and the SVG's rects are counted and coloured).
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { spawn } = require('node:child_process')
const h = require('./helpers')

const ARTIFACTS = path.join(h.REPO_ROOT, 'build', 'test-artifacts')
const MCBENCH = process.env.MCBENCH
  ? path.resolve(h.REPO_ROOT, process.env.MCBENCH)
  : path.join(h.REPO_ROOT, 'build', 'mcbench')

const children = new Set()
after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) try { c.kill('SIGKILL') } catch (e) {}
  await h.cleanupAll()
})

test('the dashboard\'s Profile button draws a flame graph of at least 20 frames', { timeout: 90000 }, async (t) => {
  const httpPort = await h.freePort()
  await h.withServer({ name: 'flame', props: { 'admin-http-port': httpPort, 'view-distance': 6, 'max-players': 100 } }, async (srv) => {
    const walk = spawn(MCBENCH, ['--port', String(srv.port), '--bots', '50', '--rate', '25', '--duration', '30',
      '--scenario', 'walk', '--radius', '64', '--view-distance', '6', '--quiet'], { stdio: 'ignore' })
    children.add(walk)
    const { page, problems, close } = await h.chromiumPage({ width: 1400, height: 1200 })
    try {
      const resp = await page.goto(`http://127.0.0.1:${httpPort}/`, { waitUntil: 'load', timeout: 15000 })
      assert.equal(resp.status(), 200)
      // the flame graph is one of the dashboard's fragments: its script is in the
      // page's one script, named by its hash (a CSP refusal is a console error)
      assert.match(resp.headers()['content-security-policy'], /script-src 'sha256-[^']+';/, 'the script named by hash')
      await h.sleep(2000) // the walkers are in
      await page.click('#prof-btn')
      assert.match(await page.textContent('#prof-status'), /profiling for 10 s/)
      await page.waitForFunction(() => Number(document.body.dataset.frames || 0) >= 20,
        null, { timeout: 30000, polling: 250 })
      const frames = Number(await page.evaluate(() => document.body.dataset.frames))
      const rects = await page.$$eval('#flame rect', (r) => r.length)
      assert.ok(rects >= 20 && rects === frames, `an SVG of at least 20 frames (${rects} rects, ${frames} drawn)`)
      assert.match(await page.textContent('#prof-status'), /^\d+ samples; click a frame to zoom$/)
      const titles = await page.$$eval('#flame title', (ts) => ts.map((x) => x.textContent))
      assert.ok(titles.some((x) => /^game \(\d+ samples, [\d.]+%\)$/.test(x)), 'the game thread is a frame')
      assert.ok(titles.some((x) => /^loop_run /.test(x)), 'function names are frames')
      const box = await page.$eval('#flame', (s) => { const b = s.getBoundingClientRect(); return [b.width, b.height] })
      assert.ok(box[0] > 600 && box[1] >= 17 * 4, `the graph is drawn at size (${box})`)

      fs.mkdirSync(ARTIFACTS, { recursive: true })
      const shot = path.join(ARTIFACTS, 'flame.png')
      await (await page.$('#profile')).screenshot({ path: shot })
      assert.ok(fs.statSync(shot).size > 5000, 'screenshot written')
      t.diagnostic(`screenshot: ${path.relative(h.REPO_ROOT, shot)}`)

      // zoom: clicking the game thread's frame makes it the full width
      await page.evaluate(() => {
        const g = [...document.querySelectorAll('#flame g')].find((x) => /^game /.test(x.querySelector('title').textContent))
        g.dispatchEvent(new MouseEvent('click', { bubbles: true }))
      })
      const zoomed = await page.$$eval('#flame g', (gs) => gs.map((g) => [g.querySelector('title').textContent, Number(g.querySelector('rect').getAttribute('width'))]))
      const game = zoomed.find(([n]) => /^game /.test(n))
      assert.ok(game && game[1] > 1190, 'the clicked frame fills the width')
      assert.deepEqual(problems, [], 'no console errors, CSP violations or failed requests')
    } finally {
      await close()
      try { walk.kill('SIGTERM') } catch (e) {}
    }
  })
})
