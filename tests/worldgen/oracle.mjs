// oracle.mjs — deepslate (misode's TypeScript implementation of vanilla's
// noise router) loaded with the same reference JSON as mcserv's generator
// (data/worldgen/1.20.1), used as the test oracle.
//
//   node tests/worldgen/oracle.mjs SEED < "x z qy" lines   → "x z height biome" lines
//
// height: deepslate's OCEAN_FLOOR_WG base height (highest solid noise block + 1);
// biome: the multi-noise biome at quart (x >> 2, qy, z >> 2).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as ds from 'deepslate'

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
const DATA = path.join(ROOT, 'data', 'worldgen', '1.20.1')

function walk (dir, base = '') {
  const out = []
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = base ? `${base}/${e.name}` : e.name
    if (e.isDirectory()) out.push(...walk(path.join(dir, e.name), rel))
    else if (e.name.endsWith('.json')) out.push(rel.replace(/\.json$/, ''))
  }
  return out
}

let loaded = null
export function load () {
  if (loaded) return loaded
  const read = (rel) => JSON.parse(fs.readFileSync(path.join(DATA, rel + '.json'), 'utf8'))
  for (const n of walk(path.join(DATA, 'noise'))) {
    ds.WorldgenRegistries.NOISE.register(ds.Identifier.create(n), ds.NoiseParameters.fromJson(read('noise/' + n)))
  }
  for (const f of walk(path.join(DATA, 'density_function'))) {
    ds.WorldgenRegistries.DENSITY_FUNCTION.register(ds.Identifier.create(f), ds.DensityFunction.fromJson(read('density_function/' + f)))
  }
  const settings = ds.NoiseGeneratorSettings.fromJson(read('noise_settings/overworld'))
  const biomes = ds.MultiNoiseBiomeSource.fromJson(read('multi_noise_biome_source_parameter_list/overworld'))
  loaded = { settings, biomes }
  return loaded
}

export function sampler (seed) {
  const { settings, biomes } = load()
  const state = new ds.RandomState(settings, BigInt(seed))
  const gen = new ds.NoiseChunkGenerator(biomes, settings)
  return {
    height: (x, z) => gen.getBaseHeight(x, z, 'OCEAN_FLOOR_WG', state),
    biome: (x, qy, z) => biomes.getBiome(x >> 2, qy, z >> 2, state.sampler).toString(),
    state
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const s = sampler(process.argv[2] || '12345')
  const lines = fs.readFileSync(0, 'utf8').split('\n').filter(Boolean)
  for (const l of lines) {
    const [x, z, qy] = l.split(/\s+/).map(Number)
    console.log(`${x} ${z} ${s.height(x, z)} ${s.biome(x, qy, z)}`)
  }
}
