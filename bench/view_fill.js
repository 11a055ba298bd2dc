#!/usr/bin/env node
// view_fill.js — time until a fresh player's whole view has arrived.
//
// Starts mcserv in a temporary directory (normal world, the given seed and
// view distance), joins one minecraft-protocol client, and reports the time
// from TCP connect to: login success, the first chunk, the spawn position,
// and the last chunk of the (2r+1)² square. Run twice in one server: the
// first join generates every chunk (cold), the second finds them cached
// (warm). Also prints the server's RSS and chunk count.
//
//   node bench/view_fill.js [--mcserv build/mcserv] [--view 10] [--seed 12345] [--workers 0]
'use strict'
const { spawn } = require('child_process')
const fs = require('fs')
const os = require('os')
const path = require('path')
const net = require('net')
const mc = require('minecraft-protocol')

const args = process.argv.slice(2)
const opt = (name, def) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : def }
const MCSERV = path.resolve(opt('--mcserv', path.join(__dirname, '..', 'build', 'mcserv')))
const VIEW = Number(opt('--view', '10'))
const SEED = opt('--seed', '12345')
const WORKERS = opt('--workers', '0')

function freePort () {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)) })
  })
}

async function join (port, name) {
  const need = (2 * VIEW + 1) ** 2
  const t0 = process.hrtime.bigint()
  const ms = () => Number(process.hrtime.bigint() - t0) / 1e6
  const client = mc.createClient({ host: '127.0.0.1', port, username: name, version: '1.20.1', auth: 'offline' })
  const r = { chunks: 0 }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { client.end(); reject(new Error(`timeout with ${r.chunks}/${need} chunks`)) }, 60000)
    client.on('success', () => { r.login = ms() })
    client.on('spawn_position', () => { if (r.spawn === undefined) r.spawn = ms() })
    client.on('position', (p) => client.write('teleport_confirm', { teleportId: p.teleportId }))
    client.on('map_chunk', () => {
      r.chunks++
      if (r.chunks === 1) r.firstChunk = ms()
      if (r.chunks === need) {
        r.full = ms()
        clearTimeout(timer)
        client.end()
        resolve(r)
      }
    })
    client.on('error', reject)
  })
}

async function main () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-viewfill-'))
  const port = await freePort()
  fs.writeFileSync(path.join(dir, 'server.properties'),
    `server-ip=127.0.0.1\nserver-port=${port}\nonline-mode=false\nlevel-type=normal\nlevel-seed=${SEED}\n` +
    `view-distance=${VIEW}\nworker-threads=${WORKERS}\n`)
  const srv = spawn(MCSERV, [], { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] })
  await new Promise((resolve, reject) => {
    let out = ''
    srv.stderr.on('data', (d) => { out += d; if (out.includes('Done (')) resolve() })
    srv.on('exit', (c) => reject(new Error(`mcserv exited ${c}: ${out}`)))
  })
  const rss = () => Number(fs.readFileSync(`/proc/${srv.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1])
  const rss0 = rss()
  const cold = await join(port, 'ColdJoin')
  await new Promise((resolve) => setTimeout(resolve, 300))
  const rss1 = rss()
  const warm = await join(port, 'WarmJoin')
  const f = (x) => x === undefined ? '-' : x.toFixed(1)
  console.log(`view distance ${VIEW} (${(2 * VIEW + 1) ** 2} chunks), seed ${SEED}, worker-threads ${WORKERS}`)
  console.log('join   login(ms) first-chunk(ms) spawn(ms) full-view(ms)')
  for (const [n, r] of [['cold', cold], ['warm', warm]]) console.log(`${n.padEnd(6)} ${f(r.login).padStart(8)} ${f(r.firstChunk).padStart(15)} ${f(r.spawn).padStart(9)} ${f(r.full).padStart(13)}`)
  console.log(`server RSS: ${rss0} KiB idle, ${rss1} KiB with ${(2 * VIEW + 1) ** 2} chunks loaded (${((rss1 - rss0) / (2 * VIEW + 1) ** 2).toFixed(1)} KiB per chunk)`)
  srv.kill('SIGTERM')
  await new Promise((resolve) => srv.on('exit', resolve))
  fs.rmSync(dir, { recursive: true, force: true })
}
main().catch((e) => { console.error(e); process.exit(1) })
