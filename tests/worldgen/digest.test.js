'use strict'
// The generator's safety net: every optimisation of the overworld generator
// must leave its output bit-identical. `build/worldgen --digest` hashes every
// chunk of a square (block states with their palettes, biomes, heightmaps, and
// one column's spawn-search height, full-scan height and fuzzy biome; see
// tools/worldgen.c) and sums the chunks' hashes, so the digest is the same
// whatever order or number of threads made the chunks.
//
// The expected values were recorded from the generator as it landed with
// issue 24 (main 7560d3f), before any speed work: a change to any block,
// biome or height of these squares fails here.
//
// WORLDGEN: the binary (default build/worldgen); WORLDGEN_DIGEST_RADIUS: the
// radius of the three seeds' squares around 0,0 (8, the default, or 3: the
// ASan run's).
const { test } = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { execFileSync } = require('node:child_process')

const ROOT = path.join(__dirname, '..', '..')
const WORLDGEN = process.env.WORLDGEN || path.join(ROOT, 'build', 'worldgen')
const RADIUS = Number(process.env.WORLDGEN_DIGEST_RADIUS || 8)

// seed -> radius -> digest of the (2R)^2 chunks around 0,0
const EXPECTED = {
  1: { 3: '84be2404c2007b6c', 8: '42d53ec2d082a1a7' },
  12345: { 3: '012c84859e4ab5df', 8: '5a45481b7c1824fc' },
  20261130: { 3: 'a7e63bcd1e6e080f', 8: '4ffdd78d6d430c15' },
}
// Squares away from spawn (radius 2 around --at, in chunks): the highest
// land of each seed's survey within ±4096 blocks, and a deep ocean.
const PLACES = [
  { seed: 12345, at: '-56,64', what: 'mountain peaks, surface y 197', digest: '069b00326f8e6424' },
  { seed: 1, at: '-144,-160', what: 'mountain peaks, surface y 194', digest: 'edef3ccbfa72939d' },
  { seed: 12345, at: '64,-128', what: 'deep ocean, floor y 39', digest: 'e6606de22563914a' },
]

function digest (args) {
  const out = execFileSync(WORLDGEN, [...args, '--digest'], { maxBuffer: 1 << 20 }).toString()
  const m = /digest: ([0-9a-f]{16})/.exec(out)
  assert.ok(m, `no digest in:\n${out}`)
  return m[1]
}

for (const seed of Object.keys(EXPECTED)) {
  test(`seed ${seed}, radius ${RADIUS}: the chunks are the recorded ones`, { timeout: 600000 }, () => {
    const want = EXPECTED[seed][RADIUS]
    assert.ok(want, `no recorded digest for radius ${RADIUS}`)
    assert.equal(digest(['--seed', seed, '--radius', String(RADIUS)]), want)
  })
}

for (const p of PLACES) {
  test(`seed ${p.seed} at chunk ${p.at} (${p.what}), on one thread and on two`, { timeout: 600000 }, () => {
    assert.equal(digest(['--seed', String(p.seed), '--radius', '2', '--at', p.at]), p.digest)
    // the same chunks made by two threads sharing one terrain (and its caches)
    assert.equal(digest(['--seed', String(p.seed), '--radius', '2', '--at', p.at, '--threads', '2']), p.digest)
  })
}
