'use strict'
// Issue 24, acceptance 4: maps of seeds 12345 and 1 within ±4096 blocks.
//
// build/worldgen --survey samples the surface (noise stage) and its biome
// every 32 blocks (WORLDGEN_MAP_STRIDE) and writes a map; this test keeps the
// maps as PNG artefacts in build/worldgen-maps/ (WORLDGEN_MAP_DIR) and checks
// what a player should find there: rivers, mountains above y 150, and at
// least 25 distinct biomes.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')
const { execFileSync } = require('node:child_process')

const ROOT = path.join(__dirname, '..', '..')
const WORLDGEN = process.env.WORLDGEN || path.join(ROOT, 'build', 'worldgen')
const STRIDE = Number(process.env.WORLDGEN_MAP_STRIDE || 32)
const DIR = process.env.WORLDGEN_MAP_DIR || path.join(ROOT, 'build', 'worldgen-maps')

function ppmToPng (ppm) {
  const header = ppm.subarray(0, 32).toString('latin1').split(/\s+/)
  const w = Number(header[1]), h = Number(header[2])
  const start = ppm.indexOf('255\n') + 4
  const raw = Buffer.alloc((w * 3 + 1) * h)
  for (let y = 0; y < h; y++) ppm.copy(raw, y * (w * 3 + 1) + 1, start + y * w * 3, start + (y + 1) * w * 3)
  const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0 })
  const crc = (b) => { let c = 0xffffffff; for (const x of b) c = crcTable[(c ^ x) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0 }
  const chunk = (type, data) => {
    const len = Buffer.alloc(4); len.writeUInt32BE(data.length)
    const td = Buffer.concat([Buffer.from(type), data])
    const c = Buffer.alloc(4); c.writeUInt32BE(crc(td))
    return Buffer.concat([len, td, c])
  }
  const ihdr = Buffer.alloc(13); ihdr.writeUInt32BE(w, 0); ihdr.writeUInt32BE(h, 4); ihdr[8] = 8; ihdr[9] = 2
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))])
}

for (const seed of [12345, 1]) {
  test(`seed ${seed}: rivers, mountains above y 150 and 25+ biomes within ±4096`, { timeout: 300000 }, () => {
    fs.mkdirSync(DIR, { recursive: true })
    const ppm = path.join(DIR, `seed-${seed}.ppm`)
    const out = execFileSync(WORLDGEN, ['--seed', String(seed), '--survey', '4096', '--stride', String(STRIDE), '--ppm', ppm]).toString()
    fs.writeFileSync(path.join(DIR, `seed-${seed}.png`), ppmToPng(fs.readFileSync(ppm)))
    fs.unlinkSync(ppm)
    console.log(out.trim())
    const distinct = Number(/distinct biomes: (\d+)/.exec(out)[1])
    const highest = Number(/highest surface y (-?\d+)/.exec(out)[1])
    const river = Number(/river: ([\d.]+) %/.exec(out)[1])
    assert.ok(distinct >= 25, `${distinct} distinct biomes`)
    assert.ok(highest > 150, `highest surface y ${highest}`)
    assert.ok(river > 0.5, `${river} % river`)
  })
}
