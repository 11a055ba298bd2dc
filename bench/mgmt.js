'use strict'
// bench/mgmt.js — the management protocol's costs on a running mcserv
// (issue 20): request round trips on one connection, a notification's
// fan-out to every open connection, and the tick rate while the connection
// limit is held and 1,000 more connections are refused. Loopback only;
// every loop is bounded in count and time.
//
//   node bench/mgmt.js [MCSERV]   (default build/mcserv)
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const net = require('node:net')
const { spawn } = require('node:child_process')
const WebSocket = require('ws')

const MCSERV = path.resolve(process.argv[2] || path.join(__dirname, '..', 'build', 'mcserv'))
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
const pct = (a, p) => a.slice().sort((x, y) => x - y)[Math.min(a.length - 1, Math.floor(a.length * p))]

async function freePort () {
  return new Promise((resolve) => { const s = net.createServer(); s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)) }) })
}

async function main () {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-bench-mgmt-'))
  const http = await freePort()
  fs.writeFileSync(path.join(dir, 'server.properties'), [
    'server-ip=127.0.0.1', `server-port=${await freePort()}`, 'online-mode=false', 'level-type=flat',
    `admin-http-port=${http}`, 'management-server-enabled=true', 'management-server-tls-enabled=false', ''
  ].join('\n'))
  const proc = spawn(MCSERV, [], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  proc.stderr.on('data', (d) => { log += d })
  const t0 = Date.now()
  while (!/listening on localhost:(\d+)/.test(log)) { if (Date.now() - t0 > 10000) throw new Error('no listener'); await sleep(20) }
  const port = Number(/listening on localhost:(\d+)/.exec(log)[1])
  const secret = /^management-server-secret=(\w+)$/m.exec(fs.readFileSync(path.join(dir, 'server.properties'), 'utf8'))[1]
  const open = () => new Promise((resolve, reject) => {
    const w = new WebSocket(`ws://127.0.0.1:${port}/`, { headers: { Authorization: `Bearer ${secret}` } })
    w.once('open', () => resolve(w)); w.once('error', reject); w.once('unexpected-response', () => reject(new Error('refused')))
  })
  const ask = (w, text) => new Promise((resolve) => { w.once('message', () => resolve()); w.send(text) })
  const status = async () => (await (await fetch(`http://127.0.0.1:${http}/api/status`)).json())
  const out = {}

  // 1. round trips on one connection
  const w = await open()
  for (const [name, text] of [['minecraft:players', '{"jsonrpc":"2.0","id":1,"method":"minecraft:players"}'],
    ['minecraft:server/status', '{"jsonrpc":"2.0","id":1,"method":"minecraft:server/status"}'],
    ['rpc.discover', '{"jsonrpc":"2.0","id":1,"method":"rpc.discover"}']]) {
    const ms = []
    for (let i = 0; i < 2000; i++) { const t = process.hrtime.bigint(); await ask(w, text); ms.push(Number(process.hrtime.bigint() - t) / 1e6) }
    out[name] = { p50: pct(ms, 0.5), p99: pct(ms, 0.99) }
  }

  // 2. hold the limit, then 1,000 more connections
  const held = [w]
  while (held.length < 256) held.push(await open())
  let refused = 0
  await Promise.all(Array.from({ length: 1000 }, () => open().then((x) => { held.push(x) }, () => { refused++ })))
  // 3. a notification to every open connection: an op change from one of them
  let got = 0
  const need = held.length
  const t = process.hrtime.bigint()
  const all = new Promise((resolve) => held.forEach((x) => x.on('message', (d) => { if (/operators\/added/.test(d)) { if (++got === need) resolve() } })))
  held[1].send('{"jsonrpc":"2.0","id":5,"method":"minecraft:operators/add","params":[[{"player":{"name":"Bench"}}]]}')
  await Promise.race([all, sleep(10000)])
  out.fanout = { connections: need, received: got, ms: Number(process.hrtime.bigint() - t) / 1e6 }
  await sleep(6000)
  const st = await status()
  out.held = { open: held.length, refused, tps_5s: st.tps.last_5s, mspt: st.mspt }
  for (const x of held) x.terminate()
  proc.kill('SIGTERM')
  await new Promise((resolve) => proc.on('exit', resolve))
  fs.rmSync(dir, { recursive: true, force: true })
  console.log(JSON.stringify(out, null, 2))
}
main().catch((e) => { console.error(e); process.exit(1) })
