'use strict'
// flying-squid-server.js — starts flying-squid (the Node.js Minecraft server
// from npm) as a peer target for mcbench, on 127.0.0.1 only, with a
// superflat in-memory world (no world folder: nothing is written to disk).
//
//   node bench/flying-squid-server.js --port 25566 [--max-players 1000]
//        [--view-distance 2] [--everybody-op]
// --everybody-op makes every player an operator (mcbench's spread scenario:
// the bots teleport themselves with /tp, flying-squid has no RCON).
// (minecraft-protocol's server always uses a compression threshold of 256.)
//
// Prints "ready <port>" on stdout once it listens and its plugins are loaded
// (the runner and tests wait for that line). Exits on SIGTERM/SIGINT, and
// with --exit-on-stdin-close also when stdin closes (the runner passes a
// pipe, so a runner that dies never leaves the server behind).
const path = require('node:path')

function arg (name, def) {
  const i = process.argv.indexOf('--' + name)
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : def
}

const port = Number(arg('port', 25566))
const maxPlayers = Number(arg('max-players', 1000))
const viewDistance = Number(arg('view-distance', 2))

// flying-squid is installed in the repository's node_modules.
const squid = require(path.join(__dirname, '..', 'node_modules', 'flying-squid'))

const serv = squid.createMCServer({
  motd: 'flying-squid (mcbench peer)',
  host: '127.0.0.1',
  port,
  'max-players': maxPlayers,
  'online-mode': false,
  logging: false,
  noConsoleOutput: true,
  gameMode: 1,
  difficulty: 1,
  worldFolder: undefined,
  generation: { name: 'superflat', options: {} },
  kickTimeout: 30000,
  plugins: {},
  modpe: false,
  'view-distance': viewDistance,
  'player-list-text': { header: { text: '' }, footer: { text: '' } },
  'everybody-op': process.argv.includes('--everybody-op'),
  'max-entities': maxPlayers + 100, // flying-squid counts players as entities ('Too many mobs !')
  version: '1.20.1'
})

serv.on('error', (e) => process.stderr.write(`flying-squid error: ${e && e.stack ? e.stack : e}\n`))
serv.waitForReady(30000).then(() => {
  process.stdout.write(`ready ${port}\n`)
}, (e) => {
  process.stderr.write(`flying-squid did not become ready: ${e}\n`)
  process.exit(1)
})

function quit () {
  try { serv.quit && serv.quit() } catch (e) {}
  setTimeout(() => process.exit(0), 500).unref()
  process.exit(0)
}
process.on('SIGTERM', quit)
process.on('SIGINT', quit)
if (process.argv.includes('--exit-on-stdin-close')) {
  process.stdin.on('end', quit)
  process.stdin.on('close', quit)
  process.stdin.resume()
}
