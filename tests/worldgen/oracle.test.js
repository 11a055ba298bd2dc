'use strict'
// Issue 24, acceptance 2: mcserv's terrain against deepslate (misode's
// independent implementation of vanilla's noise router), both fed the same
// reference JSON (data/worldgen/1.20.1) and the same seed.
//
// For seeds 12345 and 1, N columns (default 1000; WORLDGEN_SAMPLES) spread
// over ±4096 blocks: the noise stage's surface height (highest solid block + 1,
// vanilla's OCEAN_FLOOR_WG) and the biome at the surface quart, from
// `build/worldgen --probe` (WORLDGEN=path) and from deepslate. Prints the match
// rates; fails below the targets (heights within 1 block at ≥ 95 % of
// columns, identical biomes at ≥ 95 %). Exact is the aim and what is measured.
const { test } = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { execFileSync } = require('node:child_process')

const ROOT = path.join(__dirname, '..', '..')
const WORLDGEN = process.env.WORLDGEN || path.join(ROOT, 'build', 'worldgen')
const N = Number(process.env.WORLDGEN_SAMPLES || 1000)
const mcData = require('minecraft-data')('1.20.1')

function columns (seed, n) {
  // A small LCG so the sample is the same on every run.
  let s = BigInt(seed) & 0x7fffffffn
  const next = () => { s = (s * 1103515245n + 12345n) % 2147483648n; return Number(s) / 2147483648 }
  const out = []
  for (let i = 0; i < n; i++) out.push([Math.floor(next() * 8192) - 4096, Math.floor(next() * 8192) - 4096])
  return out
}

for (const seed of [12345, 1]) {
  test(`seed ${seed}: surface heights and biomes equal deepslate's at ${N} columns`, { timeout: 300000 }, async () => {
    const { sampler } = await import('./oracle.mjs')
    const ds = sampler(seed)
    const cols = columns(seed, N).map(([x, z]) => {
      const h = ds.height(x, z)
      const qy = Math.max(-16, (h - 1) >> 2)
      return { x, z, qy, h, biome: ds.biome(x, qy, z) }
    })
    const input = cols.map((c) => `${c.x} ${c.z} ${c.qy}`).join('\n') + '\n'
    const out = execFileSync(WORLDGEN, ['--seed', String(seed), '--probe'], { input, maxBuffer: 16 << 20 })
      .toString().trim().split('\n').map((l) => l.split(' ').map(Number))
    assert.equal(out.length, cols.length)
    let exact = 0, within1 = 0, biomes = 0
    const misses = []
    cols.forEach((c, i) => {
      const [, , h, b] = out[i]
      const name = 'minecraft:' + mcData.biomes[b].name
      if (h === c.h) exact++
      if (Math.abs(h - c.h) <= 1) within1++
      if (name === c.biome) biomes++
      if ((h !== c.h || name !== c.biome) && misses.length < 10) misses.push(`${c.x},${c.z}: height ${h} vs ${c.h}, ${name} vs ${c.biome}`)
    })
    const pct = (k) => (100 * k / cols.length).toFixed(1) + ' %'
    console.log(`seed ${seed}, ${cols.length} columns: heights exact ${pct(exact)}, within 1 block ${pct(within1)}; biomes ${pct(biomes)}`)
    if (misses.length) console.log('  first differences:\n  ' + misses.join('\n  '))
    assert.ok(within1 >= 0.95 * cols.length, `heights within 1 block: ${pct(within1)}`)
    assert.ok(biomes >= 0.95 * cols.length, `identical biomes: ${pct(biomes)}`)
  })
}
