'use strict'
// Helpers for the plugin end-to-end tests (issue 19): a server directory
// with plugins written into plugins/<name>/ before mcserv starts (so they
// load at startup, as an operator installs them), the shipped examples
// copied from plugins-examples/, and small waits on the log.
//
//   startWithPlugins({ name, props, plugins, examples })  → server handle
//       (persist-util's: output(), send(line), waitOutput(re, {from}),
//       stop(), kill()); plugins: { name: { 'init.lua': text,
//       'plugin.json': object, ... } }; examples: ['welcome', ...]
//   writePlugin(dir, name, files)   (re)writes one plugin's files
//   restart(srv)                    stops and starts mcserv in the same dir
//   cleanup()                       every server stopped, every dir removed
//
// Invariants: every wait is bounded; servers listen on 127.0.0.1 only;
// every directory made here is removed by cleanup() (unless KEEP_E2E_TMP).

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const h = require('./helpers')
const pu = require('./persist-util')

const EXAMPLES = path.join(h.REPO_ROOT, 'plugins-examples')
const dirs = new Set()

function writePlugin (dir, name, files) {
  const pdir = path.join(dir, 'plugins', name)
  fs.mkdirSync(pdir, { recursive: true })
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(pdir, file)), { recursive: true })
    fs.writeFileSync(path.join(pdir, file), typeof content === 'string' ? content : JSON.stringify(content, null, 2))
  }
}

async function startWithPlugins ({ name = 'plugins', props = {}, plugins = {}, examples = [] } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `mcserv-e2e-${name}-`))
  dirs.add(dir)
  const all = Object.assign({
    'server-ip': '127.0.0.1',
    'online-mode': 'false',
    'level-type': 'flat',
    'admin-http-port': '0',
    'view-distance': '3',
    'server-port': await h.freePort()
  }, props)
  fs.writeFileSync(path.join(dir, 'server.properties'),
    Object.entries(all).map(([k, v]) => `${k}=${v}`).join('\n') + '\n')
  for (const ex of examples) fs.cpSync(path.join(EXAMPLES, ex), path.join(dir, 'plugins', ex), { recursive: true })
  for (const [n, files] of Object.entries(plugins)) writePlugin(dir, n, files)
  return pu.startIn(dir, { name })
}

async function restart (srv) {
  const info = await srv.stop(10000)
  if (info.code !== 0) throw new Error(`mcserv did not stop cleanly: ${JSON.stringify(info)}\n${srv.describe()}`)
  return pu.startIn(srv.dir, { name: srv.name })
}

async function cleanup () {
  await h.cleanupAll()
  await pu.cleanup()
  if (!process.env.KEEP_E2E_TMP) for (const d of dirs) { try { fs.rmSync(d, { recursive: true, force: true }) } catch (e) {} }
  dirs.clear()
}

module.exports = { startWithPlugins, writePlugin, restart, cleanup, EXAMPLES }
