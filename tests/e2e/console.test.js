'use strict'
// The console in a real terminal (issue 17): line editing through libedit,
// history kept in the server directory, Tab completion from the command
// tree the clients get. Driven with tmux (send-keys, capture-pane); when
// stdin is not a terminal the console stays a plain line reader, which the
// rest of the suite exercises.
const { test, after } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const h = require('./helpers')

after(h.cleanupAll)

const MCSERV = process.env.MCSERV || path.join(__dirname, '..', '..', 'build', 'mcserv')
const tmux = (...args) => execFileSync('tmux', args, { encoding: 'utf8' })

test('tmux: Tab completes `gam` to gamemode, Up recalls the last line, history is kept in the server directory', { timeout: 60000 }, async (t) => {
  try { execFileSync('tmux', ['-V']) } catch (e) { t.skip('tmux is not installed'); return }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcserv-e2e-console-'))
  const port = await h.freePort()
  fs.writeFileSync(path.join(dir, 'server.properties'),
    `server-ip=127.0.0.1\nserver-port=${port}\nonline-mode=false\nlevel-type=flat\nadmin-http-port=0\nview-distance=2\n`)
  const session = `mcserv-console-${process.pid}`
  const screen = () => tmux('capture-pane', '-p', '-t', session)
  tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '40', '-c', dir,
    `env TERM=xterm ${MCSERV} ; sleep 30`)
  try {
    await h.waitFor(() => /For help, type "help"/.test(screen()), { timeout: 15000, message: 'the ready line on the terminal', detail: screen })
    tmux('send-keys', '-t', session, 'gam', 'Tab', 'Tab')
    await h.waitFor(() => /gamemode/.test(screen().split('For help')[1] || ''), { timeout: 5000, message: 'gamemode offered by Tab', detail: screen })
    tmux('send-keys', '-t', session, 'C-u', 'list', 'Enter')
    await h.waitFor(() => /There are 0 of a max of \d+ players online/.test(screen()), { timeout: 5000, message: 'list ran', detail: screen })
    tmux('send-keys', '-t', session, 'Up')
    await h.waitFor(() => /^> list\s*$/m.test(screen()), { timeout: 5000, message: 'Up recalled "list"', detail: screen })
    tmux('send-keys', '-t', session, 'C-u', 'stop', 'Enter')
    await h.waitFor(() => fs.existsSync(path.join(dir, '.console_history')) && /Server stopped/.test(fs.readFileSync(path.join(dir, 'logs', 'latest.log'), 'utf8')), { timeout: 15000, message: 'stopped, history written', detail: screen })
    const history = fs.readFileSync(path.join(dir, '.console_history'), 'utf8')
    assert.match(history, /list/)
    assert.match(history, /stop/)
  } finally {
    try { tmux('kill-session', '-t', session) } catch (e) {}
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
