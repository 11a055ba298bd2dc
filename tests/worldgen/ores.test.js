'use strict'
// Issue 24, acceptance 3: ores in a 32×32-chunk sample of seed 12345 against
// the distribution vanilla's placed-feature data implies.
//
// build/worldgen --ores generates the chunks around 0,0 (WORLDGEN_ORE_RADIUS,
// default 16 → 32×32) and reports, per 16-block band, each ore's blocks, the
// host stone (what ores replace) and how much of it touches air, and per
// feature how many chunks' biomes allowed it. The expected count of an ore in
// a band is, over its placed features (data/worldgen/1.20.1/placed_feature):
//   attempts (count or 1/rarity × allowed chunks)
//   × P(vein origin y) (uniform or trapezoid height provider)
//   × blocks per vein and their spread in y around the origin (vanilla's
//     OreFeature shape, simulated here in solid stone for the vein's size)
//   × the band's host-stone fraction × (1 − discard chance × air-exposed fraction).
// Cells (ore, band) expecting at least 150 blocks, and each ore's total, must
// lie within 20 % of that.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')

const ROOT = path.join(__dirname, '..', '..')
const DATA = path.join(ROOT, 'data', 'worldgen', '1.20.1')
const WORLDGEN = process.env.WORLDGEN || path.join(ROOT, 'build', 'worldgen')
const RADIUS = Number(process.env.WORLDGEN_ORE_RADIUS || 16)
const MIN_Y = -64
const TOP = 319
const read = (rel) => JSON.parse(fs.readFileSync(path.join(DATA, rel), 'utf8'))
const strip = (s) => s.replace(/^minecraft:/, '')

// The vein shape of vanilla's OreFeature (place + doPlace) in solid stone, with a
// seeded PRNG: blocks per vein and their y offsets from the origin, per size.
function veinStats (size, samples = 400) {
  let s = 0x9e3779b9 ^ size
  const rnd = () => { s ^= s << 13; s ^= s >>> 17; s ^= s << 5; return (s >>> 0) / 4294967296 }
  const hist = new Map()
  let total = 0
  for (let n = 0; n < samples; n++) {
    const f = Math.fround(rnd() * Math.PI)
    const g = size / 8
    const i = Math.ceil((size / 16 * 2 + 1) / 2)
    const d = Math.sin(f) * g, e = -Math.sin(f) * g, h = Math.cos(f) * g, j = -Math.cos(f) * g
    const l = Math.floor(rnd() * 3) - 2, m = Math.floor(rnd() * 3) - 2
    const ds = []
    for (let q = 0; q < size; q++) {
      const r = q / size
      const v = rnd() * size / 16
      const w = ((Math.sin(Math.PI * r) + 1) * v + 1) / 2
      ds.push([d + r * (e - d), l + r * (m - l), h + r * (j - h), w])
    }
    for (let a = 0; a < size - 1; a++) {
      if (ds[a][3] <= 0) continue
      for (let b = a + 1; b < size; b++) {
        if (ds[b][3] <= 0) continue
        const dx = ds[a][0] - ds[b][0], dy = ds[a][1] - ds[b][1], dz = ds[a][2] - ds[b][2], dw = ds[a][3] - ds[b][3]
        if (dw * dw > dx * dx + dy * dy + dz * dz) { if (dw > 0) ds[b][3] = -1; else ds[a][3] = -1 }
      }
    }
    const seen = new Set()
    for (const [t, u, v, w] of ds) {
      if (w < 0) continue
      for (let x = Math.floor(t - w); x <= Math.floor(t + w); x++) {
        for (let y = Math.floor(u - w); y <= Math.floor(u + w); y++) {
          for (let z = Math.floor(v - w); z <= Math.floor(v + w); z++) {
            const a = (x + 0.5 - t) / w, b = (y + 0.5 - u) / w, c = (z + 0.5 - v) / w
            if (a * a + b * b + c * c >= 1) continue
            const k = `${x},${y},${z}`
            if (seen.has(k)) continue
            seen.add(k)
            hist.set(y, (hist.get(y) || 0) + 1)
            total++
          }
        }
      }
    }
  }
  return { perVein: total / samples, dy: [...hist].map(([dy, c]) => [dy, c / total]) }
}

function anchor (a) {
  if ('absolute' in a) return a.absolute
  if ('above_bottom' in a) return MIN_Y + a.above_bottom
  return TOP - a.below_top
}

// P(origin y) for a height provider, as [y, p] pairs.
function heights (hp) {
  const lo = anchor(hp.min_inclusive), hi = anchor(hp.max_inclusive)
  if (strip(hp.type) === 'uniform') {
    const out = []
    for (let y = lo; y <= hi; y++) out.push([y, 1 / (hi - lo + 1)])
    return out
  }
  const span = hi - lo, m = Math.floor(span / 2), n = span - m
  const p = new Map()
  for (let a = 0; a <= n; a++) for (let b = 0; b <= m; b++) p.set(lo + a + b, (p.get(lo + a + b) || 0) + 1 / ((n + 1) * (m + 1)))
  return [...p]
}

test(`ores of seed 12345 in ${2 * RADIUS}×${2 * RADIUS} chunks follow vanilla's placed-feature distributions`, { timeout: 600000 }, () => {
  const report = JSON.parse(execFileSync(WORLDGEN, ['--seed', '12345', '--radius', String(RADIUS), '--ores'], { maxBuffer: 1 << 20 }).toString())
  const bands = report.host.length
  const bandVolume = report.chunks * 256 * report.band_height
  const hostFrac = report.host.map((h) => h / bandVolume)
  const expFrac = report.host.map((h, b) => (h ? report.exposed[b] / h : 0))
  const expected = {}
  for (const kind of Object.keys(report.ores)) expected[kind] = new Array(bands).fill(0)
  const stats = new Map()
  for (const f of fs.readdirSync(path.join(DATA, 'placed_feature'))) {
    const name = f.replace(/\.json$/, '')
    const pf = read(`placed_feature/${f}`)
    const cf = read(`configured_feature/${strip(pf.feature)}.json`).config
    const kind = Object.keys(report.ores).find((k) => strip(cf.targets[0].state.Name).startsWith(k + '_'))
    if (!kind) continue // stone blobs
    let attempts = 1, hp = null
    for (const m of pf.placement) {
      const t = strip(m.type)
      if (t === 'count') attempts = typeof m.count === 'number' ? m.count : (m.count.value.min_inclusive + m.count.value.max_inclusive) / 2
      if (t === 'rarity_filter') attempts = 1 / m.chance
      if (t === 'height_range') hp = m.height
    }
    attempts *= report.allowed[name] ?? 0
    if (!stats.has(cf.size)) stats.set(cf.size, veinStats(cf.size))
    const vs = stats.get(cf.size)
    for (const [y, p] of heights(hp)) {
      for (const [dy, q] of vs.dy) {
        const b = Math.floor((y + dy - MIN_Y) / report.band_height)
        if (b < 0 || b >= bands) continue
        expected[kind][b] += attempts * p * vs.perVein * q * hostFrac[b] * (1 - cf.discard_chance_on_air_exposure * expFrac[b])
      }
    }
  }
  const rows = []
  const bad = []
  for (const kind of Object.keys(report.ores)) {
    const obs = report.ores[kind]
    const tot = obs.reduce((a, b) => a + b, 0)
    const etot = expected[kind].reduce((a, b) => a + b, 0)
    rows.push(`${kind.padEnd(9)} total ${String(tot).padStart(7)} expected ${etot.toFixed(0).padStart(7)} (${etot ? (100 * (tot - etot) / etot).toFixed(1) : '-'} %)`)
    if (etot >= 150 && Math.abs(tot - etot) > 0.2 * etot) bad.push(`${kind} total ${tot} vs ${etot.toFixed(0)}`)
    for (let b = 0; b < bands; b++) {
      const e = expected[kind][b]
      if (e < 150) continue
      const y0 = MIN_Y + b * report.band_height
      rows.push(`    y ${String(y0).padStart(4)}..${String(y0 + report.band_height - 1).padStart(4)}: ${String(obs[b]).padStart(6)} vs ${e.toFixed(0).padStart(6)} (${(100 * (obs[b] - e) / e).toFixed(1)} %)`)
      if (Math.abs(obs[b] - e) > 0.2 * e) bad.push(`${kind} at y ${y0}: ${obs[b]} vs ${e.toFixed(0)}`)
    }
  }
  console.log(rows.join('\n'))
  assert.deepEqual(bad, [], 'ore counts outside 20 % of the placed-feature distribution')
})
