#!/usr/bin/env node
/*
 * gen_biome_params.js — writes the overworld multi-noise biome parameter list
 * of Minecraft 1.20.1 as JSON (the format of 1.18.2's inline dimension list
 * and of vanilla's biome_parameters report, which deepslate also reads).
 *
 * Usage: node tools/gen_biome_params.js [OUT]
 *        (default: data/worldgen/1.20.1/multi_noise_biome_source_parameter_list/overworld.json)
 *
 * 1.20.1 ships this list as code (the "minecraft:overworld" preset built by
 * OverworldBiomeBuilder), not as a data file. This script builds it the same
 * way, in the same order (order decides ties and the search tree's shape):
 * off-coast biomes, the 13 weirdness slices inland, then the cave biomes.
 * Each entry of a surface biome appears twice, at depth 0 and depth 1.
 *
 * Values are quantized as vanilla does (Climate.quantizeCoord: the float
 * times 10000F, truncated to a long) and written as that long / 10000, so a
 * reader recovers the exact long with Math.round(v * 10000).
 */
'use strict';
const fs = require('fs');
const path = require('path');

const f32 = Math.fround;
const q = (f) => Math.trunc(f32(f32(f) * 10000)); // Climate.quantizeCoord(float)
const span = (a, b) => (Array.isArray(a) ? [a[0], b[1]] : [q(a), q(b)]);
const point = (f) => [q(f), q(f)];

const FULL = span(-1.0, 1.0);
const TEMPS = [span(-1.0, -0.45), span(-0.45, -0.15), span(-0.15, 0.2), span(0.2, 0.55), span(0.55, 1.0)];
const HUMIDS = [span(-1.0, -0.35), span(-0.35, -0.1), span(-0.1, 0.1), span(0.1, 0.3), span(0.3, 1.0)];
const EROS = [span(-1.0, -0.78), span(-0.78, -0.375), span(-0.375, -0.2225), span(-0.2225, 0.05), span(0.05, 0.45), span(0.45, 0.55), span(0.55, 1.0)];
const FROZEN = TEMPS[0];
const UNFROZEN = span(TEMPS[1], TEMPS[4]);
const MUSHROOM = span(-1.2, -1.05);
const DEEP_OCEAN = span(-1.05, -0.455);
const OCEAN = span(-0.455, -0.19);
const COAST = span(-0.19, -0.11);
const INLAND = span(-0.11, 0.55);
const NEAR = span(-0.11, 0.03);
const MID = span(0.03, 0.3);
const FAR = span(0.3, 1.0);

const OCEANS = [['deep_frozen_ocean', 'deep_cold_ocean', 'deep_ocean', 'deep_lukewarm_ocean', 'warm_ocean'],
  ['frozen_ocean', 'cold_ocean', 'ocean', 'lukewarm_ocean', 'warm_ocean']];
const MIDDLE = [['snowy_plains', 'snowy_plains', 'snowy_plains', 'snowy_taiga', 'taiga'],
  ['plains', 'plains', 'forest', 'taiga', 'old_growth_spruce_taiga'],
  ['flower_forest', 'plains', 'forest', 'birch_forest', 'dark_forest'],
  ['savanna', 'savanna', 'forest', 'jungle', 'jungle'],
  ['desert', 'desert', 'desert', 'desert', 'desert']];
const MIDDLE_VARIANT = [['ice_spikes', null, 'snowy_taiga', null, null],
  [null, null, null, null, 'old_growth_pine_taiga'],
  ['sunflower_plains', null, null, 'old_growth_birch_forest', null],
  [null, null, 'plains', 'sparse_jungle', 'bamboo_jungle'],
  [null, null, null, null, null]];
const PLATEAU = [['snowy_plains', 'snowy_plains', 'snowy_plains', 'snowy_taiga', 'snowy_taiga'],
  ['meadow', 'meadow', 'forest', 'taiga', 'old_growth_spruce_taiga'],
  ['meadow', 'meadow', 'meadow', 'meadow', 'dark_forest'],
  ['savanna_plateau', 'savanna_plateau', 'forest', 'forest', 'jungle'],
  ['badlands', 'badlands', 'badlands', 'wooded_badlands', 'wooded_badlands']];
const PLATEAU_VARIANT = [['ice_spikes', null, null, null, null],
  ['cherry_grove', null, 'meadow', 'meadow', 'old_growth_pine_taiga'],
  ['cherry_grove', 'cherry_grove', 'forest', 'birch_forest', null],
  [null, null, null, null, null],
  ['eroded_badlands', 'eroded_badlands', null, null, null]];
const SHATTERED = [['windswept_gravelly_hills', 'windswept_gravelly_hills', 'windswept_hills', 'windswept_forest', 'windswept_forest'],
  ['windswept_gravelly_hills', 'windswept_gravelly_hills', 'windswept_hills', 'windswept_forest', 'windswept_forest'],
  ['windswept_hills', 'windswept_hills', 'windswept_hills', 'windswept_forest', 'windswept_forest'],
  [null, null, null, null, null], [null, null, null, null, null]];

const list = [];
const add = (t, h, c, e, d, w, off, biome) => list.push({ biome, t, h, c, e, d, w, off: q(off) });
const surface = (t, h, c, e, w, off, b) => { add(t, h, c, e, point(0.0), w, off, b); add(t, h, c, e, point(1.0), w, off, b); };
const underground = (t, h, c, e, w, off, b) => add(t, h, c, e, span(0.2, 0.9), w, off, b);
const bottom = (t, h, c, e, w, off, b) => add(t, h, c, e, point(1.1), w, off, b);

const neg = (w) => w[1] < 0;
const middle = (i, j, w) => (neg(w) ? MIDDLE[i][j] : MIDDLE_VARIANT[i][j] ?? MIDDLE[i][j]);
const badlands = (j, w) => (j < 2 ? (neg(w) ? 'badlands' : 'eroded_badlands') : j < 3 ? 'badlands' : 'wooded_badlands');
const middleOrBadlands = (i, j, w) => (i === 4 ? badlands(j, w) : middle(i, j, w));
const middleOrBadlandsOrSlope = (i, j, w) => (i === 0 ? slope(i, j, w) : middleOrBadlands(i, j, w));
const windsweptSavanna = (i, j, w, b) => (i > 1 && j < 4 && w[1] >= 0 ? 'windswept_savanna' : b);
const shatteredCoast = (i, j, w) => windsweptSavanna(i, j, w, w[1] >= 0 ? middle(i, j, w) : beach(i));
const beach = (i) => (i === 0 ? 'snowy_beach' : i === 4 ? 'desert' : 'beach');
const plateau = (i, j, w) => (!neg(w) && PLATEAU_VARIANT[i][j]) || PLATEAU[i][j];
const peak = (i, j, w) => (i <= 2 ? (neg(w) ? 'jagged_peaks' : 'frozen_peaks') : i === 3 ? 'stony_peaks' : badlands(j, w));
const slope = (i, j, w) => (i >= 3 ? plateau(i, j, w) : j <= 1 ? 'snowy_slopes' : 'grove');
const shattered = (i, j, w) => SHATTERED[i][j] ?? middle(i, j, w);

function offCoast() {
  surface(FULL, FULL, MUSHROOM, FULL, FULL, 0, 'mushroom_fields');
  for (let i = 0; i < TEMPS.length; i++) {
    surface(TEMPS[i], FULL, DEEP_OCEAN, FULL, FULL, 0, OCEANS[0][i]);
    surface(TEMPS[i], FULL, OCEAN, FULL, FULL, 0, OCEANS[1][i]);
  }
}
function peaks(w) {
  for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) {
    const t = TEMPS[i], h = HUMIDS[j];
    const m = middle(i, j, w), mb = middleOrBadlands(i, j, w), mbs = middleOrBadlandsOrSlope(i, j, w);
    const p = plateau(i, j, w), s = shattered(i, j, w), ws = windsweptSavanna(i, j, w, s), pk = peak(i, j, w);
    surface(t, h, span(COAST, FAR), EROS[0], w, 0, pk);
    surface(t, h, span(COAST, NEAR), EROS[1], w, 0, mbs);
    surface(t, h, span(MID, FAR), EROS[1], w, 0, pk);
    surface(t, h, span(COAST, NEAR), span(EROS[2], EROS[3]), w, 0, m);
    surface(t, h, span(MID, FAR), EROS[2], w, 0, p);
    surface(t, h, MID, EROS[3], w, 0, mb);
    surface(t, h, FAR, EROS[3], w, 0, p);
    surface(t, h, span(COAST, FAR), EROS[4], w, 0, m);
    surface(t, h, span(COAST, NEAR), EROS[5], w, 0, ws);
    surface(t, h, span(MID, FAR), EROS[5], w, 0, s);
    surface(t, h, span(COAST, FAR), EROS[6], w, 0, m);
  }
}
function high(w) {
  for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) {
    const t = TEMPS[i], h = HUMIDS[j];
    const m = middle(i, j, w), mb = middleOrBadlands(i, j, w), mbs = middleOrBadlandsOrSlope(i, j, w);
    const p = plateau(i, j, w), s = shattered(i, j, w), ws = windsweptSavanna(i, j, w, m), sl = slope(i, j, w), pk = peak(i, j, w);
    surface(t, h, COAST, span(EROS[0], EROS[1]), w, 0, m);
    surface(t, h, NEAR, EROS[0], w, 0, sl);
    surface(t, h, span(MID, FAR), EROS[0], w, 0, pk);
    surface(t, h, NEAR, EROS[1], w, 0, mbs);
    surface(t, h, span(MID, FAR), EROS[1], w, 0, sl);
    surface(t, h, span(COAST, NEAR), span(EROS[2], EROS[3]), w, 0, m);
    surface(t, h, span(MID, FAR), EROS[2], w, 0, p);
    surface(t, h, MID, EROS[3], w, 0, mb);
    surface(t, h, FAR, EROS[3], w, 0, p);
    surface(t, h, span(COAST, FAR), EROS[4], w, 0, m);
    surface(t, h, span(COAST, NEAR), EROS[5], w, 0, ws);
    surface(t, h, span(MID, FAR), EROS[5], w, 0, s);
    surface(t, h, span(COAST, FAR), EROS[6], w, 0, m);
  }
}
function midSlice(w) {
  surface(FULL, FULL, COAST, span(EROS[0], EROS[2]), w, 0, 'stony_shore');
  surface(span(TEMPS[1], TEMPS[2]), FULL, span(NEAR, FAR), EROS[6], w, 0, 'swamp');
  surface(span(TEMPS[3], TEMPS[4]), FULL, span(NEAR, FAR), EROS[6], w, 0, 'mangrove_swamp');
  for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) {
    const t = TEMPS[i], h = HUMIDS[j];
    const m = middle(i, j, w), mb = middleOrBadlands(i, j, w), mbs = middleOrBadlandsOrSlope(i, j, w);
    const s = shattered(i, j, w), p = plateau(i, j, w), b = beach(i), ws = windsweptSavanna(i, j, w, m);
    const sc = shatteredCoast(i, j, w), sl = slope(i, j, w);
    surface(t, h, span(NEAR, FAR), EROS[0], w, 0, sl);
    surface(t, h, span(NEAR, MID), EROS[1], w, 0, mbs);
    surface(t, h, FAR, EROS[1], w, 0, i === 0 ? sl : p);
    surface(t, h, NEAR, EROS[2], w, 0, m);
    surface(t, h, MID, EROS[2], w, 0, mb);
    surface(t, h, FAR, EROS[2], w, 0, p);
    surface(t, h, span(COAST, NEAR), EROS[3], w, 0, m);
    surface(t, h, span(MID, FAR), EROS[3], w, 0, mb);
    if (neg(w)) {
      surface(t, h, COAST, EROS[4], w, 0, b);
      surface(t, h, span(NEAR, FAR), EROS[4], w, 0, m);
    } else {
      surface(t, h, span(COAST, FAR), EROS[4], w, 0, m);
    }
    surface(t, h, COAST, EROS[5], w, 0, sc);
    surface(t, h, NEAR, EROS[5], w, 0, ws);
    surface(t, h, span(MID, FAR), EROS[5], w, 0, s);
    surface(t, h, COAST, EROS[6], w, 0, neg(w) ? b : m);
    if (i === 0) surface(t, h, span(NEAR, FAR), EROS[6], w, 0, m);
  }
}
function lowSlice(w) {
  surface(FULL, FULL, COAST, span(EROS[0], EROS[2]), w, 0, 'stony_shore');
  surface(span(TEMPS[1], TEMPS[2]), FULL, span(NEAR, FAR), EROS[6], w, 0, 'swamp');
  surface(span(TEMPS[3], TEMPS[4]), FULL, span(NEAR, FAR), EROS[6], w, 0, 'mangrove_swamp');
  for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) {
    const t = TEMPS[i], h = HUMIDS[j];
    const m = middle(i, j, w), mb = middleOrBadlands(i, j, w), mbs = middleOrBadlandsOrSlope(i, j, w);
    const b = beach(i), ws = windsweptSavanna(i, j, w, m), sc = shatteredCoast(i, j, w);
    surface(t, h, NEAR, span(EROS[0], EROS[1]), w, 0, mb);
    surface(t, h, span(MID, FAR), span(EROS[0], EROS[1]), w, 0, mbs);
    surface(t, h, NEAR, span(EROS[2], EROS[3]), w, 0, m);
    surface(t, h, span(MID, FAR), span(EROS[2], EROS[3]), w, 0, mb);
    surface(t, h, COAST, span(EROS[3], EROS[4]), w, 0, b);
    surface(t, h, span(NEAR, FAR), EROS[4], w, 0, m);
    surface(t, h, COAST, EROS[5], w, 0, sc);
    surface(t, h, NEAR, EROS[5], w, 0, ws);
    surface(t, h, span(MID, FAR), EROS[5], w, 0, m);
    surface(t, h, COAST, EROS[6], w, 0, b);
    if (i === 0) surface(t, h, span(NEAR, FAR), EROS[6], w, 0, m);
  }
}
function valleys(w) {
  surface(FROZEN, FULL, COAST, span(EROS[0], EROS[1]), w, 0, neg(w) ? 'stony_shore' : 'frozen_river');
  surface(UNFROZEN, FULL, COAST, span(EROS[0], EROS[1]), w, 0, neg(w) ? 'stony_shore' : 'river');
  surface(FROZEN, FULL, NEAR, span(EROS[0], EROS[1]), w, 0, 'frozen_river');
  surface(UNFROZEN, FULL, NEAR, span(EROS[0], EROS[1]), w, 0, 'river');
  surface(FROZEN, FULL, span(COAST, FAR), span(EROS[2], EROS[5]), w, 0, 'frozen_river');
  surface(UNFROZEN, FULL, span(COAST, FAR), span(EROS[2], EROS[5]), w, 0, 'river');
  surface(FROZEN, FULL, COAST, EROS[6], w, 0, 'frozen_river');
  surface(UNFROZEN, FULL, COAST, EROS[6], w, 0, 'river');
  surface(span(TEMPS[1], TEMPS[2]), FULL, span(INLAND, FAR), EROS[6], w, 0, 'swamp');
  surface(span(TEMPS[3], TEMPS[4]), FULL, span(INLAND, FAR), EROS[6], w, 0, 'mangrove_swamp');
  surface(FROZEN, FULL, span(INLAND, FAR), EROS[6], w, 0, 'frozen_river');
  for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++)
    surface(TEMPS[i], HUMIDS[j], span(MID, FAR), span(EROS[0], EROS[1]), w, 0, middleOrBadlands(i, j, w));
}
function inland() {
  midSlice(span(-1.0, -0.93333334)); high(span(-0.93333334, -0.7666667)); peaks(span(-0.7666667, -0.56666666));
  high(span(-0.56666666, -0.4)); midSlice(span(-0.4, -0.26666668)); lowSlice(span(-0.26666668, -0.05));
  valleys(span(-0.05, 0.05)); lowSlice(span(0.05, 0.26666668)); midSlice(span(0.26666668, 0.4));
  high(span(0.4, 0.56666666)); peaks(span(0.56666666, 0.7666667)); high(span(0.7666667, 0.93333334));
  midSlice(span(0.93333334, 1.0));
}
function caves() {
  underground(FULL, FULL, span(0.8, 1.0), FULL, FULL, 0, 'dripstone_caves');
  underground(FULL, span(0.7, 1.0), FULL, FULL, FULL, 0, 'lush_caves');
  bottom(FULL, FULL, FULL, span(EROS[0], EROS[1]), FULL, 0, 'deep_dark');
}
offCoast();
inland();
caves();

const u = (l) => l / 10000;
const P = (p) => (p[0] === p[1] ? u(p[0]) : [u(p[0]), u(p[1])]);
const json = {
  _comment: 'Minecraft 1.20.1 overworld multi-noise parameters (preset minecraft:overworld), GENERATED by tools/gen_biome_params.js',
  biomes: list.map((e) => ({
    biome: 'minecraft:' + e.biome,
    parameters: { temperature: P(e.t), humidity: P(e.h), continentalness: P(e.c), erosion: P(e.e), weirdness: P(e.w), depth: P(e.d), offset: u(e.off) },
  })),
};
const out = process.argv[2] || path.join(__dirname, '..', 'data', 'worldgen', '1.20.1', 'multi_noise_biome_source_parameter_list', 'overworld.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, JSON.stringify(json) .replace(/\{"biome"/g, '\n{"biome"') + '\n');
