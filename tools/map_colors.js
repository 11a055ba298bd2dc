/*
 * map_colors.js — the colour of each 1.20.1 block seen from above, for the
 * live map (src/world/maprender.c), derived from vanilla's own assets as
 * packaged by minecraft-assets (1.20.2's block set is 1.20.1's), never typed in.
 *
 * minecraft-data has no map colours, so per block:
 *   1. the model of its default state (the first one, for multipart blocks)
 *      from blockstates, with its parents' textures and elements merged in;
 *   2. the texture of the largest face pointing up (else the model's top,
 *      end, all, cross... texture), and whether that face is tinted;
 *   3. the alpha-weighted mean of the texture's first 16×16 frame
 *      (the texture PNGs are decoded here: zlib from node, PNG filters below),
 *      and the mean alpha (how much of the block below shows through);
 *   4. tinted faces multiplied by vanilla's plains tint: tints.json's water,
 *      redstone and constant tints (birch and spruce leaves, lily pads), and
 *      for grass and foliage (leaves, vines) the colormap pixel of plains'
 *      temperature and downfall (from the vanilla registry codec).
 * Blocks with no model texture (air, light, barrier) are fully transparent.
 *
 * module.exports(blocks) -> [{name, argb, texture, tinted}] by block id.
 */
'use strict';
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const ASSETS = path.join(path.dirname(require.resolve('minecraft-assets/package.json')),
  'minecraft-assets', 'data', '1.20.2');
const TINTS = require('minecraft-data/minecraft-data/data/pc/1.20/tints.json');

/* ------------------------------------------------------------------ PNG */

function paeth(a, b, c) {
  const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// RGBA pixels (Uint8Array, width*height*4) of a non-interlaced PNG.
function decodePng(buf) {
  let pos = 8, width = 0, height = 0, depth = 0, type = 0, interlace = 0;
  let palette = null, trns = null;
  const idat = [];
  while (pos < buf.length) {
    const len = buf.readUInt32BE(pos), kind = buf.toString('latin1', pos + 4, pos + 8);
    const data = buf.subarray(pos + 8, pos + 8 + len);
    if (kind === 'IHDR') {
      width = data.readUInt32BE(0); height = data.readUInt32BE(4);
      depth = data[8]; type = data[9]; interlace = data[12];
    } else if (kind === 'PLTE') palette = data;
    else if (kind === 'tRNS') trns = data;
    else if (kind === 'IDAT') idat.push(data);
    pos += 12 + len;
  }
  if (interlace) throw new Error('interlaced PNG');
  const channels = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 }[type];
  const bpp = Math.max(1, (channels * depth) >> 3);
  const stride = Math.ceil((width * channels * depth) / 8);
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const rows = [];
  let prev = new Uint8Array(stride);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)], src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? row[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      const pred = f === 1 ? a : f === 2 ? b : f === 3 ? (a + b) >> 1 : f === 4 ? paeth(a, b, c) : 0;
      row[i] = (src[i] + pred) & 255;
    }
    rows.push(row);
    prev = row;
  }
  const sample = (row, i) => {
    if (depth === 8) return row[i];
    if (depth === 16) return row[i * 2];
    const perByte = 8 / depth, byte = row[Math.floor(i / perByte)];
    const shift = 8 - depth * ((i % perByte) + 1);
    return (byte >> shift) & ((1 << depth) - 1);
  };
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4, i = x * channels;
      let r, g, b, a = 255;
      if (type === 3) {
        const k = sample(rows[y], x);
        r = palette[k * 3]; g = palette[k * 3 + 1]; b = palette[k * 3 + 2];
        if (trns && k < trns.length) a = trns[k];
      } else if (type === 0 || type === 4) {
        const scale = depth < 8 ? 255 / ((1 << depth) - 1) : 1;
        r = g = b = Math.round(sample(rows[y], i) * scale);
        if (type === 4) a = sample(rows[y], i + 1);
      } else {
        r = sample(rows[y], i); g = sample(rows[y], i + 1); b = sample(rows[y], i + 2);
        if (type === 6) a = sample(rows[y], i + 3);
      }
      out.set([r, g, b, a], o);
    }
  return { width, height, pixels: out };
}

/* ------------------------------------------------------------- models */

const states = require(path.join(ASSETS, 'blocks_states.json'));
const models = require(path.join(ASSETS, 'blocks_models.json'));
const bare = (s) => s.replace(/^minecraft:/, '').replace(/^block\//, '').replace(/^blocks\//, '');

// The model of a block's default state: the first variant, or the first multipart part.
function stateModel(name) {
  const s = states[name];
  if (!s) return null;
  let m = null;
  if (s.variants) {
    const first = Object.values(s.variants)[0];
    m = Array.isArray(first) ? first[0] : first;
  } else if (s.multipart && s.multipart.length) {
    const a = s.multipart[0].apply;
    m = Array.isArray(a) ? a[0] : a;
  }
  return m ? bare(m.model) : null;
}

// Textures (child over parent) and the nearest elements along the parent chain.
function resolveModel(name) {
  const textures = {};
  let elements = null;
  for (let n = name, guard = 0; n && models[n] && guard < 16; guard++) {
    const m = models[n];
    for (const [k, v] of Object.entries(m.textures || {})) if (!(k in textures)) textures[k] = v;
    if (!elements && m.elements) elements = m.elements;
    n = m.parent ? bare(m.parent) : null;
  }
  return { textures, elements: elements || [] };
}

function resolveTexture(textures, ref) {
  for (let guard = 0; ref && ref.startsWith('#') && guard < 16; guard++) ref = textures[ref.slice(1)];
  return ref && !ref.startsWith('#') ? bare(ref) : null;
}

// The texture seen from above and whether it is tinted.
function topTexture(model) {
  const { textures, elements } = resolveModel(model);
  let best = null, bestArea = -1, tinted = false;
  for (const e of elements) {
    const up = e.faces && e.faces.up;
    const area = (e.to[0] - e.from[0]) * (e.to[2] - e.from[2]);
    if (up && area > bestArea) {
      best = up.texture; bestArea = area; tinted = up.tintindex !== undefined;
    }
  }
  if (!best) {
    best = ['#top', '#end', '#all', '#up', '#cross', '#texture', '#plant', '#crop', '#side', '#particle']
      .find((k) => textures[k.slice(1)]);
    tinted = elements.some((e) => Object.values(e.faces || {}).some((f) => f.tintindex !== undefined));
  }
  return { texture: best ? resolveTexture(textures, best) : null, tinted };
}

/* -------------------------------------------------------------- tints */

// Vanilla's tint in plains: tints.json's colour, or (0 there: grass and
// foliage) the colormap pixel for the biome's temperature and downfall, as
// GrassColor.get / FoliageColor.get pick it.
function plainsTint(kind) {
  const row = TINTS[kind].data.find((d) => d.keys.includes('plains'));
  if (row && row.color) return row.color;
  /* temperature and downfall as the vanilla registry codec (Login) sends them */
  const codec = require('minecraft-data')('1.20.1').loginPacket.dimensionCodec.value;
  const entry = codec['minecraft:worldgen/biome'].value.value.value.value
    .find((b) => b.name.value === 'minecraft:plains').element.value;
  const t = Math.min(1, Math.max(0, entry.temperature.value));
  const d = Math.min(1, Math.max(0, entry.downfall.value)) * t;
  const map = decodePng(fs.readFileSync(path.join(ASSETS, 'colormap', kind + '.png')));
  const i = Math.floor((1 - t) * 255), j = Math.floor((1 - d) * 255);
  const o = ((j << 8) | i) * 4;
  return (map.pixels[o] << 16) | (map.pixels[o + 1] << 8) | map.pixels[o + 2];
}

function tintOf(name) {
  const constant = TINTS.constant.data.find((d) => d.keys.includes(name));
  if (constant) return constant.color;
  if (name === 'redstone_wire') return TINTS.redstone.data.find((d) => d.keys.includes(0)).color;
  if (/water|bubble_column/.test(name)) return plainsTint('water');
  if (/leaves|vine/.test(name)) return plainsTint('foliage');
  return plainsTint('grass');
}

/* ------------------------------------------------------------ colours */

function meanColour(file) {
  const { width, pixels } = decodePng(fs.readFileSync(file));
  let r = 0, g = 0, b = 0, a = 0;
  const n = width * width; /* first frame of an animated strip */
  for (let i = 0; i < n; i++) {
    const al = pixels[i * 4 + 3];
    r += pixels[i * 4] * al; g += pixels[i * 4 + 1] * al; b += pixels[i * 4 + 2] * al; a += al;
  }
  if (!a) return { r: 0, g: 0, b: 0, a: 0 };
  return { r: r / a, g: g / a, b: b / a, a: a / (n * 255) };
}

module.exports = function mapColors(blocks) {
  return blocks.map((blk) => {
    const model = stateModel(blk.name);
    const top = model ? topTexture(model) : { texture: null };
    const file = top.texture ? path.join(ASSETS, 'blocks', top.texture + '.png') : null;
    if (!file || !fs.existsSync(file)) return { name: blk.name, argb: 0, texture: 'none', tinted: false };
    const c = meanColour(file);
    /* Water's model has no elements; vanilla tints it (BlockColors) all the same. */
    const tinted = !!top.tinted || /^(water|bubble_column)$/.test(blk.name);
    if (tinted) {
      const t = tintOf(blk.name);
      c.r = (c.r * ((t >> 16) & 255)) / 255;
      c.g = (c.g * ((t >> 8) & 255)) / 255;
      c.b = (c.b * (t & 255)) / 255;
    }
    const ch = (v) => Math.max(0, Math.min(255, Math.round(v)));
    const argb = ((ch(c.a * 255) << 24) | (ch(c.r) << 16) | (ch(c.g) << 8) | ch(c.b)) >>> 0;
    return { name: blk.name, argb, texture: top.texture, tinted };
  });
};

// The tests decode the live map's tiles with the same PNG reader.
module.exports.decodePng = decodePng;
