'use strict'
// Issue 23, acceptance 1 (second half): a flash crowd. 1,000 real
// minecraft-protocol clients (offline mode) log in at once against a
// server with the default limits; every one must reach PLAY (Login
// Success: minecraft-protocol's state becomes 'play'), and none
// may be refused, evicted or timed out. Each client leaves as soon as it is
// in, before parsing its join burst, so the test measures the login path.
//
// The clients run in 4 worker processes (slowload.js crowd()), started
// together: minecraft-protocol costs ~10 ms of CPU per client, and in one
// node process the kernel completes all 1,000 TCP connects at once while
// the busy event loop sends the last handshakes seconds later, which
// handshake-timeout (5 s) rightly closes; a real crowd is 1,000 machines.
// (Plugin-channel type validation is off, validateChannelProtocol: false:
// with it each client costs ~100 ms.) Under the ASan build (MCSERV
// contains "asan") the crowd is 300 clients.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const h = require('./helpers')
const sl = require('./slowload')

const ASAN = /asan/.test(process.env.MCSERV || '')
const N = ASAN ? 300 : 1000
const WORKERS = 4

h.setFileDeadline(110000)
after(async () => {
  sl.cleanup()
  await h.cleanupAll()
})

test(`${N} simultaneous real logins (minecraft-protocol) all reach PLAY`, { timeout: 100000 }, async (t) => {
  require('minecraft-data')(h.VERSION) // load the 1.20.1 data before the crowd starts
  const httpPort = await h.freePort()
  await h.withServer({
    name: 'flashcrowd',
    props: { 'view-distance': 2, 'max-players': N + 10, 'admin-http-port': httpPort }
  }, async (srv) => {
    const cpu0 = procCpuMs(srv.pid)
    const { ok, failed, ms } = await sl.crowd(srv.port, { count: N, workers: WORKERS, timeoutMs: 70000 })
    t.diagnostic(`${ok.length}/${N} reached PLAY in ${ms} ms (connect to PLAY: ${sl.summary(ok)}); server CPU ${procCpuMs(srv.pid) - cpu0} ms`)
    assert.deepEqual(failed.slice(0, 10), [], `${failed.length} of ${N} did not reach PLAY`)
    assert.equal(ok.length, N)
    const m = (await sl.httpGet(httpPort, '/metrics')).body
    assert.equal(sl.metric(m, 'minecraft_logins_total'), N)
    for (const reason of ['per_ip', 'prelogin_full', 'descriptors']) {
      assert.equal(sl.metric(m, 'mcserv_connections_refused_total', { reason }), 0, `refused (${reason})`)
    }
    assert.equal(sl.metric(m, 'mcserv_prelogin_evictions_total', { list: 'fresh' }), 0)
    assert.equal(sl.metric(m, 'mcserv_prelogin_evictions_total', { list: 'waiting' }), 0)
    assert.equal(sl.metric(m, 'mcserv_handshake_timeouts_total'), 0)
    assert.equal(sl.metric(m, 'minecraft_kicks_total', { reason: 'timeout' }), 0)
  })
})

/** utime + stime of a process in ms (/proc/PID/stat, 100 ticks per second). */
function procCpuMs (pid) {
  const f = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8')
  const parts = f.slice(f.lastIndexOf(')') + 2).split(' ')
  return (Number(parts[11]) + Number(parts[12])) * 10
}

h.finalClientErrorCheck(test)
