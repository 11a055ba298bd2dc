#!/usr/bin/env node
/*
 * gen_data.js — generates mcserv's protocol tables from minecraft-data (1.20.1).
 *
 * Usage: node tools/gen_data.js [OUTDIR]   (default: src/data)
 *
 * Writes:
 *   version.h        protocol number, data version, version name
 *   packet_ids.h     PKT_<STATE>_<SB|CB>_<NAME> logical ids for every packet of every
 *                    state: the native version's (1.20.1) numbering, plus ids after
 *                    them for packets only a later supported version has
 *   protocol_ids.h   struct proto_ids, enum proto_state; one extern per version
 *   protocol_<N>.c   per supported protocol N (VERSIONS below): clientbound
 *                    logical -> wire ids, serverbound wire -> logical ids
 *   blocks.h         BLOCK_<NAME> default state ids, BLOCK_STATE_COUNT, global palette bits
 *   biomes.h         BIOME_<NAME> ids, BIOME_COUNT, global palette bits
 *   entities.h       ENTITY_TYPE_<NAME> ids
 *   registry_codec.c the Login (play) registry codec as network NBT (named empty
 *                    root), byte-identical to what a vanilla 1.20.1 server sends
 *   loot_table.{c,h} per block, its drops (minecraft-data blockLoot) for game/loot.c
 *   combat_table.{c,h} damage types (registry codec), foods, death message texts,
 *                    weapon damage and speed, armour (game/health_rules.c)
 *   entity_table.{c,h} per entity type its name, box and category, and its drops
 *                    (minecraft-data entities, entityLoot) for game/mob*.c
 *   map_colors.{c,h} per block, its colour seen from above for the live map, from
 *                    vanilla's textures in minecraft-assets (tools/map_colors.js)
 *   blast_table.{c,h} per block, its blast resistance (minecraft-data blocks) for
 *                    game/explosion.c
 *   translate_<N>.{c,h} per later supported protocol N: 1.20.1's block states,
 *                    biomes, items and entity types as N's ids, and N's
 *                    configuration registries as Registry Data payloads
 *
 * `node tools/gen_data.js --diff [VERSION]` writes nothing: it prints, for
 * every packet mcserv names (the PKT_* constants in src/), its ids and
 * whether its layout in VERSION (default: the newest pc release in
 * minecraft-data) differs from 1.20.1's (docs/design.md, "Protocol versions").
 *
 * The files are committed. `make check-generated` reruns this into a temporary
 * folder and fails when the committed copies differ (stale tables).
 */
'use strict';
const fs = require('fs');
const path = require('path');
const mcData = require('minecraft-data')('1.20.1');
const nbt = require('prismarine-nbt');


// --diff: which packets mcserv uses change layout in `ver` (see the usage above).
function layoutDiff (ver) {
  const b = require('minecraft-data')(ver);
  if (!b || !b.protocol) throw new Error('minecraft-data has no protocol for ' + ver);
  const SN = { HANDSHAKE: 'handshaking', STATUS: 'status', LOGIN: 'login', PLAY: 'play' };
  // A packet's type with every named type replaced by its definition (so a
  // renamed type with the same bytes compares equal); natives stay names.
  const expand = (p, st, dir, t, seen) => {
    if (typeof t === 'string') {
      const def = (p[st] && p[st][dir] && p[st][dir].types[t]) || p.types[t];
      if (def === undefined || def === 'native' || seen.includes(t)) return t;
      return expand(p, st, dir, def, seen.concat(t));
    }
    if (Array.isArray(t)) return t.map((x) => expand(p, st, dir, x, seen));
    if (t && typeof t === 'object') {
      const o = {};
      for (const k of Object.keys(t)) o[k] = expand(p, st, dir, t[k], seen);
      return o;
    }
    return t;
  };
  // The same with every mapper's labels dropped: what the bytes look like.
  const bytesOnly = (t) => {
    if (Array.isArray(t) && t[0] === 'mapper') return bytesOnly(t[1].type);
    if (Array.isArray(t)) return t.map(bytesOnly);
    if (t && typeof t === 'object') {
      const o = {};
      for (const k of Object.keys(t)) o[k] = bytesOnly(t[k]);
      return o;
    }
    return t;
  };
  // Mapper value -> label pairs, to tell "more values" from "values changed".
  const mappers = (t, out = []) => {
    if (Array.isArray(t) && t[0] === 'mapper') out.push(t[1].mappings);
    if (t && typeof t === 'object') for (const k of Object.keys(t)) mappers(t[k], out);
    return out;
  };
  const packet = (p, st, dir, name) => {
    const pt = p[st] && p[st][dir] && p[st][dir].types.packet;
    if (!pt) return null;
    const m = pt[1][0].type[1].mappings;
    const id = Object.keys(m).find((k) => m[k] === name);
    if (id === undefined) return null;
    return { id: parseInt(id, 16), type: expand(p, st, dir, pt[1][1].type[1].fields[name], []) };
  };
  const src = path.join(__dirname, '..', 'src');
  const used = new Set();
  const walk = (dir) => {
    for (const f of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, f.name);
      if (f.isDirectory()) {
        if (f.name !== 'data' && f.name !== 'bench') walk(full);
      } else if (/\.(c|h)$/.test(f.name)) {
        for (const m of fs.readFileSync(full, 'utf8').matchAll(/PKT_([A-Z]+)_(SB|CB)_([A-Z0-9_]+)/g)) {
          if (m[3] !== 'COUNT' && SN[m[1]]) used.add(`${SN[m[1]]} ${m[2] === 'SB' ? 'toServer' : 'toClient'} ${m[3]}`);
        }
      }
    }
  };
  walk(src);
  const hex = (n) => '0x' + n.toString(16).padStart(2, '0');
  console.log(`packets mcserv names: ${mcData.version.minecraftVersion} (${mcData.version.version}) against ${ver} (${b.version.version})`);
  for (const u of [...used].sort()) {
    const [st, dir, id] = u.split(' ');
    const names = packetList(mcData.protocol, st, dir).map((x) => x[1]);
    const name = names.find((n) => ident(n) === id);
    if (!name) continue;
    const pa = packet(mcData.protocol, st, dir, name), pb = packet(b.protocol, st, dir, name);
    let verdict;
    if (!pb) verdict = 'ABSENT in ' + ver;
    else if (JSON.stringify(pa.type) === JSON.stringify(pb.type)) verdict = 'same layout';
    else if (JSON.stringify(bytesOnly(pa.type)) !== JSON.stringify(bytesOnly(pb.type))) verdict = 'LAYOUT DIFFERS';
    else {
      const ma = mappers(pa.type), mb = mappers(pb.type);
      const changed = ma.length === mb.length && ma.some((m, i) => Object.keys(m).some((k) => mb[i][k] !== m[k]));
      verdict = changed ? 'same bytes, ENUM VALUES CHANGED' : 'same bytes, enum labels added';
    }
    console.log(`${st.padEnd(11)} ${dir.padEnd(8)} ${name.padEnd(28)} ${hex(pa.id)} -> ${pb ? hex(pb.id) : '--  '}  ${verdict}`);
  }
}

const HEADER = (what, ver = mcData.version.minecraftVersion) =>
  `/*\n * ${what}\n *\n * GENERATED by tools/gen_data.js from minecraft-data ${require('minecraft-data/package.json').version}` +
  ` (pc ${ver}). Do not edit; rerun \`make generate\`.\n */\n`;

// A protocol VarInt as bytes.
const varint = (n) => {
  const out = [];
  do { let b = n & 0x7f; n >>>= 7; if (n) b |= 0x80; out.push(b); } while (n);
  return Buffer.from(out);
};
const ident = (s) => s.replace(/^minecraft:/, '').replace(/[^A-Za-z0-9]/g, '_').toUpperCase();
const guard = (f) => 'MC_DATA_' + f.replace(/[^A-Za-z0-9]/g, '_').toUpperCase();

// Generated C goes through clang-format with the repository's .clang-format,
// so the committed tables are formatted like every other C file.
const { execFileSync } = require('child_process');
function write(file, body) {
  const formatted = execFileSync('clang-format', [
    `--style=file:${path.join(__dirname, '..', '.clang-format')}`,
    `--assume-filename=${file}`,
  ], { input: body, maxBuffer: 64 << 20 });
  fs.writeFileSync(path.join(outDir, file), formatted);
}

function header(file, what, lines) {
  write(file, `${HEADER(what)}#ifndef ${guard(file)}\n#define ${guard(file)}\n\n${lines.join('\n')}\n\n#endif\n`);
}

if (process.argv[2] === '--diff') {
  layoutDiff(process.argv[3] || require('minecraft-data').supportedVersions.pc.slice(-1)[0]);
  process.exit(0);
}
const outDir = process.argv[2] || path.join(__dirname, '..', 'src', 'data');
fs.mkdirSync(outDir, { recursive: true });

// ------------------------------------------------------------------ version
const v = mcData.version;
const versionRow = require('minecraft-data/minecraft-data/data/pc/common/protocolVersions.json')
  .find((r) => r.minecraftVersion === v.minecraftVersion);
if (!versionRow || versionRow.dataVersion === undefined) throw new Error('no dataVersion for ' + v.minecraftVersion);
header('version.h', 'version.h — the game version this build speaks.', [
  `#define MC_PROTOCOL_VERSION ${v.version}`,
  `#define MC_VERSION_NAME "${v.minecraftVersion}"`,
  `#define MC_DATA_VERSION ${versionRow.dataVersion}`,
]);

// ------------------------------------------------------------------ packets
// The protocol versions the server speaks (src/proto/protocol.c holds their
// encoders). The first is the native one: its packet numbering is the
// logical id space, the PKT_* constants every call site uses, and its
// table is the identity. A packet that only a later version has gets a
// logical id after the native ones (in that version's order), so adding a
// version never renumbers a PKT_* constant.
const VERSIONS = ['1.20.1', '26.1'];
// Packets a later version renamed: { 'play/toClient/new_name': 'native_name' },
// so that both names share one logical id. Empty while only 1.20.1 is spoken.
const PACKET_ALIASES = {};
if (VERSIONS[0] !== mcData.version.minecraftVersion) throw new Error('VERSIONS[0] must be the native version');

const stateOrder = ['handshaking', 'status', 'login', 'play', 'configuration'];
const stateName = { handshaking: 'HANDSHAKE', status: 'STATUS', login: 'LOGIN', play: 'PLAY', configuration: 'CONFIGURATION' };
const dirs = [['toServer', 'SB'], ['toClient', 'CB']];

// [wire id, name] of one state and direction of a protocol.json, by wire id.
function packetList(protocol, st, dir) {
  const packetType = protocol[st] && protocol[st][dir] && protocol[st][dir].types.packet;
  if (!packetType) return [];
  const mappings = packetType[1][0].type[1].mappings;
  return Object.keys(mappings).map((k) => [parseInt(k, 16), mappings[k]]).sort((a, b) => a[0] - b[0]);
}

const versionData = VERSIONS.map((ver) => {
  const d = ver === VERSIONS[0] ? mcData : require('minecraft-data')(ver);
  if (!d || !d.protocol) throw new Error('minecraft-data has no protocol for ' + ver);
  return d;
});
// Logical ids: per state and direction, name -> id (native ids first).
const states = stateOrder.filter((st) => versionData.some((d) => d.protocol[st]));
const logical = {};
for (const st of states) {
  for (const [dir] of dirs) {
    const ids = new Map();
    let next = 0;
    versionData.forEach((d, vi) => {
      for (const [id, rawName] of packetList(d.protocol, st, dir)) {
        const name = PACKET_ALIASES[`${st}/${dir}/${rawName}`] || rawName;
        if (ids.has(name)) continue;
        const lid = vi === 0 ? id : next;
        ids.set(name, lid);
        next = Math.max(next, lid + 1);
      }
    });
    logical[`${st}/${dir}`] = { ids, count: next };
  }
}

const pk = [];
for (const st of states) {
  for (const [dir, tag] of dirs) {
    const { ids, count } = logical[`${st}/${dir}`];
    pk.push(`/* ${st} ${dir} */`);
    for (const [name, id] of [...ids].sort((a, b) => a[1] - b[1])) {
      pk.push(`#define PKT_${stateName[st]}_${tag}_${ident(name)} 0x${id.toString(16).padStart(2, '0')}`);
    }
    pk.push(`#define PKT_${stateName[st]}_${tag}_COUNT ${count}`);
    pk.push('');
  }
}
header('packet_ids.h', 'packet_ids.h — logical packet ids per state and direction (SB = serverbound, CB = clientbound):\n' +
  ` * ${VERSIONS[0]}'s numbering; protocol_ids.h maps them to each version's wire ids.`, pk);

// protocol_ids.h and protocol_<N>.c: per version, per state, the clientbound
// logical -> wire and the serverbound wire -> logical tables (-1: the version
// has no such packet). src/proto/protocol.c builds struct mc_protocol on them.
{
  const H = [
    '#include <stdbool.h>',
    '#include <stdint.h>',
    '',
    '/* Protocol states with packets in some supported version. */',
    'enum proto_state {',
    ...states.map((st) => `    PROTO_STATE_${stateName[st]},`),
    '    PROTO_STATE_COUNT',
    '};',
    '',
    '/* One state of one version. cb_wire[logical] is the wire id of a clientbound',
    ' * packet (cb_count = PKT_<STATE>_CB_COUNT entries); sb_logical[wire] is the',
    ' * logical id of a serverbound one (sb_count = the version\'s highest id + 1).',
    ' * -1: the version has no such packet. */',
    'struct proto_id_map {',
    '    const int16_t *cb_wire;',
    '    const int16_t *sb_logical;',
    '    uint16_t cb_count, sb_count;',
    '};',
    '',
    'struct proto_ids {',
    '    int version;      /* protocol number */',
    '    const char *name; /* release name */',
    '    int data_version; /* world format version of that release */',
    '    bool identity;    /* every wire id is its logical id */',
    '    struct proto_id_map state[PROTO_STATE_COUNT];',
    '};',
    '',
    `/* The native version: its numbering is the logical one (packet_ids.h). */`,
    `#define PROTO_NATIVE_VERSION ${versionData[0].version.version}`,
    `#define PROTO_VERSION_COUNT ${VERSIONS.length}`,
    '',
  ];
  versionData.forEach((d) => {
    const num = d.version.version;
    const row = require('minecraft-data/minecraft-data/data/pc/common/protocolVersions.json')
      .find((r) => r.minecraftVersion === d.version.minecraftVersion);
    const C = [HEADER(`protocol_${num}.c — packet id tables of protocol ${num} (${d.version.minecraftVersion}).`, d.version.minecraftVersion),
      '#include "data/protocol_ids.h"', ''];
    const rows = [];
    let identity = true;
    const arr = (cname, vals) => {
      C.push(`static const int16_t ${cname}[${Math.max(1, vals.length)}] = {`);
      for (let i = 0; i < vals.length; i += 16) C.push('    ' + vals.slice(i, i + 16).join(', ') + ',');
      if (!vals.length) C.push('    -1,');
      C.push('};');
    };
    for (const st of states) {
      const cb = logical[`${st}/toClient`], sb = logical[`${st}/toServer`];
      const cbWire = new Array(cb.count).fill(-1);
      for (const [id, rawName] of packetList(d.protocol, st, 'toClient')) {
        cbWire[cb.ids.get(PACKET_ALIASES[`${st}/toClient/${rawName}`] || rawName)] = id;
      }
      const sbList = packetList(d.protocol, st, 'toServer');
      const sbLogical = new Array(sbList.length ? sbList[sbList.length - 1][0] + 1 : 0).fill(-1);
      for (const [id, rawName] of sbList) sbLogical[id] = sb.ids.get(PACKET_ALIASES[`${st}/toServer/${rawName}`] || rawName);
      if (cbWire.some((w, i) => w !== -1 && w !== i) || sbLogical.some((l, i) => l !== -1 && l !== i)) identity = false;
      const lc = st.replace(/[^a-z]/g, '_');
      arr(`${lc}_cb_wire`, cbWire);
      arr(`${lc}_sb_logical`, sbLogical);
      rows.push(`        [PROTO_STATE_${stateName[st]}] = {${lc}_cb_wire, ${lc}_sb_logical, ${cbWire.length}, ${sbLogical.length}},`);
    }
    C.push('');
    C.push(`const struct proto_ids proto_ids_${num} = {`);
    C.push(`    .version = ${num},`);
    C.push(`    .name = "${d.version.minecraftVersion}",`);
    C.push(`    .data_version = ${row && row.dataVersion !== undefined ? row.dataVersion : -1},`);
    C.push(`    .identity = ${identity},`);
    C.push('    .state = {');
    C.push(...rows);
    C.push('    },');
    C.push('};');
    write(`protocol_${num}.c`, C.join('\n') + '\n');
    H.push(`extern const struct proto_ids proto_ids_${num}; /* ${d.version.minecraftVersion}${identity ? ', identity' : ''} */`);
    H.push(`#define PROTO_IDS_${num}_IDENTITY ${identity ? 1 : 0}`);
  });
  header('protocol_ids.h', 'protocol_ids.h — per supported version, its packet ids against the logical ones\n' +
    ' * (packet_ids.h). Tables in protocol_<version>.c; used through src/proto/protocol.h.', H);
}

// ------------------------------------------------------------------ blocks
const blocks = mcData.blocksArray.slice().sort((a, b) => a.id - b.id);
let maxState = 0;
const bl = [];
for (const b of blocks) {
  maxState = Math.max(maxState, b.maxStateId);
  bl.push(`#define BLOCK_${ident(b.name)} ${b.defaultState} /* states ${b.minStateId}..${b.maxStateId} */`);
}
const stateCount = maxState + 1;
bl.push('');
bl.push(`#define BLOCK_STATE_COUNT ${stateCount}`);
bl.push(`#define BLOCK_GLOBAL_BITS ${Math.ceil(Math.log2(stateCount))}`);
header('blocks.h', 'blocks.h — default block state ids (global palette).', bl);

// ------------------------------------------------------------------ biomes
const biomes = mcData.biomesArray.slice().sort((a, b) => a.id - b.id);
const bi = biomes.map((b) => `#define BIOME_${ident(b.name)} ${b.id}`);
bi.push('');
bi.push(`#define BIOME_COUNT ${biomes.length}`);
bi.push(`#define BIOME_GLOBAL_BITS ${Math.ceil(Math.log2(biomes.length))}`);
header('biomes.h', 'biomes.h — biome ids as in the registry codec (chunk biome palettes use these).', bi);

// ------------------------------------------------------------------ entities
const ents = mcData.entitiesArray.slice().sort((a, b) => a.id - b.id);
header('entities.h', 'entities.h — entity type ids.', ents.map((e) => `#define ENTITY_TYPE_${ident(e.name)} ${e.id}`));

// ------------------------------------------------------------------ registry codec
// As C string literals, up to 92 characters a line: printable ASCII as
// itself and every other byte as a three-digit octal escape (never greedy,
// unlike \x), so the tag names and string values stay readable and the bytes
// are the same; `?` is escaped too (no trigraphs). The array has one byte
// more than the codec, the literal's NUL, never sent (registry_codec_nbt_len).
const codec = nbt.writeUncompressed(mcData.loginPacket.dimensionCodec, 'big');
const cEscape = (x) => (x >= 0x20 && x < 0x7f && x !== 0x22 && x !== 0x5c && x !== 0x3f
  ? String.fromCharCode(x) : '\\' + x.toString(8).padStart(3, '0'));
const CODEC_COLS = 92; // escaped characters a line, at most (4 + 2 + 92 <= 100 columns)
const cLiteralLines = (bytes) => {
  const lines = [];
  for (let i = 0, line = ''; i < bytes.length; i++) {
    const e = cEscape(bytes[i]);
    if (line.length + e.length > CODEC_COLS) { lines.push(`    "${line}"`); line = ''; }
    line += e;
    if (i === bytes.length - 1) lines.push(`    "${line}"`);
  }
  return lines;
};
const codecLines = cLiteralLines(codec);
write('registry_codec.c',
  HEADER('registry_codec.c — the Login (play) registry codec (6 registries) as network NBT.') +
  '#include "data/registry_codec.h"\n\n' +
  `const unsigned char registry_codec_nbt[${codec.length + 1}] =\n${codecLines.join('\n')};\n` +
  `const unsigned long registry_codec_nbt_len = ${codec.length};\n`);
header('registry_codec.h', 'registry_codec.h — see registry_codec.c.', [
  `/* ${codec.length} bytes of NBT and the NUL of the string literal that holds them. */`,
  `extern const unsigned char registry_codec_nbt[${codec.length + 1}];`,
  'extern const unsigned long registry_codec_nbt_len;',
]);

// ------------------------------------------------------------------ block and item tables
// block_table.c: per block its states, light, shape and digging data; per
// state its block; per item the block it places (same name) — what the game
// needs for light, collisions, digging, placing, and Anvil palettes by name.
{
  const materialNames = Object.keys(mcData.materials).sort();
  const matIndex = new Map(materialNames.map((n, i) => [n, i]));
  const harvestSets = ['']; // index 0: no tool needed
  const harvestIndex = new Map([['', 0]]);
  const propNames = [];
  const propIndex = new Map();
  const valueStrings = [];
  const propRows = []; // {name, first value, count}
  const propRowIndex = new Map();
  const blockRows = [];
  const blockPropIdx = []; // flattened prop row indices per block
  const stateToBlock = new Array(stateCount).fill(0);

  // Where a property's values start in block_prop_values: a run already in
  // the pool that spells them (age 0..3 inside 0..25), else the pool's tail
  // extended by what is missing, else a new run at the end. Properties read
  // their values as a run (first_value, count), so runs may overlap.
  function valuePool (values) {
    const same = (at) => values.every((v, k) => valueStrings[at + k] === v);
    for (let at = 0; at + values.length <= valueStrings.length; at++) if (same(at)) return at;
    for (let keep = Math.min(values.length - 1, valueStrings.length); keep > 0; keep--) {
      const at = valueStrings.length - keep;
      if (values.slice(0, keep).every((v, k) => valueStrings[at + k] === v)) {
        for (const v of values.slice(keep)) valueStrings.push(v);
        return at;
      }
    }
    valueStrings.push(...values);
    return valueStrings.length - values.length;
  }

  const propValues = (p) => (p.type === 'bool' ? ['true', 'false'] : p.type === 'int'
    ? (p.values || Array.from({ length: p.num_values }, (_, i) => String(i))) : p.values);
  // The longest runs go in first, so that shorter ones are found inside them.
  const allRuns = new Map();
  for (const b of blocks) for (const p of b.states || []) allRuns.set(propValues(p).join(','), propValues(p));
  for (const r of [...allRuns.values()].sort((x, y) => y.length - x.length)) valuePool(r);

  function propRow (p) {
    const values = propValues(p);
    const key = p.name + '=' + values.join(',');
    if (propRowIndex.has(key)) return propRowIndex.get(key);
    if (!propIndex.has(p.name)) { propIndex.set(p.name, propNames.length); propNames.push(p.name); }
    const row = { name: propIndex.get(p.name), first: valuePool(values), count: values.length };
    propRows.push(row);
    propRowIndex.set(key, propRows.length - 1);
    return propRows.length - 1;
  }

  const unbreakable = (b) => b.hardness === null || b.hardness === undefined || b.hardness < 0;
  for (const b of blocks) {
    const tools = b.harvestTools ? Object.keys(b.harvestTools).map(Number).sort((x, y) => x - y).join(',') : '';
    if (!harvestIndex.has(tools)) { harvestIndex.set(tools, harvestSets.length); harvestSets.push(tools); }
    const first = blockPropIdx.length;
    for (const p of b.states || []) blockPropIdx.push(propRow(p));
    for (let s = b.minStateId; s <= b.maxStateId; s++) stateToBlock[s] = b.id;
    blockRows.push({
      b,
      // Unbreakable (vanilla's hardness -1) is a flag, the hardness then 0:
      // every row has the shape of the others (no minus sign in a few).
      hardness: unbreakable(b) ? 0 : b.hardness,
      flags: (b.boundingBox === 'block' ? 1 : 0) | (b.diggable ? 2 : 0) | (b.transparent ? 4 : 0) |
        (unbreakable(b) ? 8 : 0),
      material: matIndex.has(b.material) ? matIndex.get(b.material) : matIndex.get('default'),
      harvest: harvestIndex.get(tools),
      propFirst: first,
      propCount: (b.states || []).length,
    });
  }
  if (blocks.some((b, i) => b.id !== i)) throw new Error('block ids are not dense');

  const q = (s) => JSON.stringify(s);
  const L = [];
  L.push(HEADER('block_table.c — block, state, material and item tables.'));
  L.push('#include "data/block_table.h"\n\n#include "data/blocks.h"\n');
  L.push(`const char *const block_prop_names[${propNames.length}] = {${propNames.map(q).join(', ')}};\n`);
  L.push(`const char *const block_prop_values[${valueStrings.length}] = {`);
  for (let i = 0; i < valueStrings.length; i += 12) L.push('    ' + valueStrings.slice(i, i + 12).map(q).join(', ') + ',');
  L.push('};\n');
  L.push(`const struct block_prop block_props[${propRows.length}] = {`);
  for (const r of propRows) L.push(`    {${r.name}, ${r.first}, ${r.count}},`);
  L.push('};\n');
  L.push(`const uint16_t block_prop_index[${Math.max(1, blockPropIdx.length)}] = {`);
  for (let i = 0; i < blockPropIdx.length; i += 20) L.push('    ' + blockPropIdx.slice(i, i + 20).join(', ') + ',');
  L.push('};\n');
  L.push(`const char *const harvest_tool_sets[${harvestSets.length}] = {${harvestSets.map(q).join(', ')}};\n`);
  L.push(`const char *const material_names[${materialNames.length}] = {${materialNames.map(q).join(', ')}};\n`);
  // material speed multipliers: per material, a list of (item id, multiplier)
  const matTools = [];
  const matFirst = [];
  for (const m of materialNames) {
    matFirst.push(matTools.length);
    for (const [item, mult] of Object.entries(mcData.materials[m]).sort((a, b) => a[0] - b[0])) matTools.push([Number(item), mult]);
  }
  L.push(`const struct material_tool material_tools[${Math.max(1, matTools.length)}] = {`);
  for (const [item, mult] of matTools) L.push(`    {${item}, ${Number(mult).toFixed(2)}f},`);
  L.push('};');
  L.push(`const uint16_t material_tools_first[${materialNames.length + 1}] = {${matFirst.concat([matTools.length]).join(', ')}};\n`);
  L.push(`const struct block_info block_info[${blockRows.length}] = {`);
  for (const r of blockRows) {
    const b = r.b;
    L.push(`    {${q(b.name)}, ${b.minStateId}, ${b.maxStateId}, ${b.defaultState}, ${Number(r.hardness).toFixed(2)}f, ${b.emitLight}, ${b.filterLight}, ${r.flags}, ${r.material}, ${r.harvest}, ${r.propFirst}, ${r.propCount}},`);
  }
  L.push('};\n');
  L.push('const uint16_t block_of_state[BLOCK_STATE_COUNT] = {'); // sized by blocks.h, checked by the compiler
  for (let i = 0; i < stateCount; i += 24) L.push('    ' + stateToBlock.slice(i, i + 24).join(', ') + ',');
  L.push('};\n');
  const items = mcData.itemsArray.slice().sort((a, b) => a.id - b.id);
  if (items.some((it, i) => it.id !== i)) throw new Error('item ids are not dense');
  L.push(`const struct item_info item_info[${items.length}] = {`);
  for (const it of items) {
    const blk = mcData.blocksByName[it.name];
    L.push(`    {${q(it.name)}, ${it.stackSize}, ${blk ? blk.defaultState : 0}},`);
  }
  L.push('};');
  write('block_table.c', L.join('\n') + '\n');

  header('block_table.h', 'block_table.h — see block_table.c. Index block_info by block id, block_of_state by state id, item_info by item id.', [
    '#include <stdint.h>',
    '',
    `#define BLOCK_COUNT ${blockRows.length}`,
    `#define ITEM_COUNT ${items.length}`,
    `#define MATERIAL_COUNT ${materialNames.length}`,
    '',
    '#define BLOCK_FLAG_SOLID 1       /* full-cube collision box */',
    '#define BLOCK_FLAG_DIGGABLE 2',
    '#define BLOCK_FLAG_TRANSPARENT 4',
    '#define BLOCK_FLAG_UNBREAKABLE 8 /* vanilla hardness -1; hardness holds 0 */',
    '',
    'struct block_info {',
    '    const char *name;        /* without "minecraft:" */',
    '    uint16_t min_state, max_state, default_state;',
    '    float hardness;          /* 0 with BLOCK_FLAG_UNBREAKABLE */',
    '    uint8_t emit_light;      /* 0..15 */',
    '    uint8_t filter_light;    /* light lost passing through, 0..15 */',
    '    uint8_t flags;',
    '    uint8_t material;        /* index into material_names */',
    '    uint16_t harvest_tools;  /* index into harvest_tool_sets; 0 = any */',
    '    uint16_t prop_first;     /* into block_prop_index */',
    '    uint8_t prop_count;',
    '};',
    '',
    '/* One property with its values; state id = min_state + sum(idx * product of later counts). */',
    'struct block_prop {',
    '    uint16_t name;           /* into block_prop_names */',
    '    uint16_t first_value;    /* into block_prop_values */',
    '    uint16_t count;',
    '};',
    '',
    'struct material_tool {',
    '    uint16_t item;',
    '    float multiplier;',
    '};',
    '',
    'struct item_info {',
    '    const char *name;',
    '    uint8_t stack_size;',
    '    uint16_t block_state;    /* default state of the block it places; 0 (air): none */',
    '};',
    '',
    'extern const struct block_info block_info[BLOCK_COUNT];',
    'extern const uint16_t block_of_state[];',
    'extern const struct block_prop block_props[];',
    'extern const uint16_t block_prop_index[];',
    'extern const char *const block_prop_names[];',
    'extern const char *const block_prop_values[];',
    'extern const char *const harvest_tool_sets[]; /* comma-separated item ids */',
    'extern const char *const material_names[MATERIAL_COUNT];',
    'extern const struct material_tool material_tools[];',
    'extern const uint16_t material_tools_first[MATERIAL_COUNT + 1];',
    'extern const struct item_info item_info[ITEM_COUNT];',
  ]);
}

// ------------------------------------------------------------------ map colours
// map_colors.c: per block id, its colour seen from above (0xAARRGGBB; alpha =
// how much it covers the block below), derived from vanilla's textures by
// tools/map_colors.js. The live map (src/world/maprender.c) draws with it.
{
  const colours = require('./map_colors.js')(blocks);
  // One row a block, `id name: texture`, all rows of one shape; the blocks
  // whose colour is tinted are listed once, in the file's header comment.
  const tinted = colours.filter((c) => c.tinted).map((c) => c.name);
  const tintNote = ['Tinted as in plains (grass, foliage, water colours):'];
  for (const n of tinted) {
    if (tintNote[tintNote.length - 1].length + n.length + 2 > 90) tintNote.push('');
    tintNote[tintNote.length - 1] += (tintNote[tintNote.length - 1] ? ' ' : '') + n + ',';
  }
  tintNote[tintNote.length - 1] = tintNote[tintNote.length - 1].replace(/,$/, '.');
  const L = [HEADER('map_colors.c — block colours seen from above, for the live map (see map_colors.h).\n *\n' +
    ' * Per block id, its colour and the texture it comes from (none: no top face).\n * ' +
    tintNote.join('\n * ')) + '#include "data/map_colors.h"\n',
    'const uint32_t block_map_argb[BLOCK_MAP_COUNT] = {'];
  colours.forEach((c, id) => L.push(`    0x${c.argb.toString(16).padStart(8, '0')}, /* ${id} ${c.name}: ${c.texture} */`));
  L.push('};');
  write('map_colors.c', L.join('\n') + '\n');
  header('map_colors.h', 'map_colors.h — per block id, 0xAARRGGBB seen from above: the alpha-weighted mean of\n' +
    ' * the texture of its top face in vanilla\'s assets (minecraft-assets), tinted as in plains;\n' +
    ' * alpha is how much of the block below it hides (tools/map_colors.js).', [
    '#include <stdint.h>',
    '',
    `#define BLOCK_MAP_COUNT ${colours.length}`,
    '',
    'extern const uint32_t block_map_argb[BLOCK_MAP_COUNT];',
  ]);
}

// ------------------------------------------------------------------ block loot
// loot_table.c: per block id, what breaking it drops (minecraft-data's
// blockLoot, a flattening of vanilla's loot tables), read by game/loot.c.
// minecraft-data marks the silk-touch branch of a table (`silkTouch`) and the
// other branch (`noSilkTouch`) but gives both a made-up chance of 1/n; a
// branch is certain in vanilla, so here a branch's only entry drops always,
// and several `noSilkTouch` entries (gravel: flint or gravel) are
// alternatives (LOOT_ALT: one of them, weighted by the data's chances).
// Entries in neither branch keep the data's chance (leaves, grass, snow:
// approximations, docs/design.md "Item entities and drops"). Fortune is not in the data.
{
  const SILK_ONLY = 1, NO_SILK = 2, ALT = 4, AGE = 8;
  const entries = [];
  const first = [];
  for (const b of blocks) {
    first.push(entries.length);
    const t = mcData.blockLoot[b.name];
    if (!t) continue;
    const noSilk = t.drops.filter((e) => e.noSilkTouch).length;
    for (const e of t.drops) {
      const it = mcData.itemsByName[e.item];
      if (!it) throw new Error(`blockLoot ${b.name}: unknown item ${e.item}`);
      let flags = 0, chance = e.dropChance;
      if (e.silkTouch) { flags |= SILK_ONLY; chance = 1; }
      if (e.noSilkTouch) { flags |= NO_SILK; if (noSilk === 1) chance = 1; else flags |= ALT; }
      if (e.blockAge !== undefined) flags |= AGE;
      // A few ranges are missing or negative in the data (mushroom blocks,
      // melon: [0, null], [null, 1]; glow lichen: [-1, -1], one per face):
      // a missing end is the other, and a range below 1 is 1.
      const [a, z] = e.stackSizeRange;
      let min = Number.isFinite(a) ? Math.max(0, a) : 0;
      let max = Number.isFinite(z) ? z : Math.max(min, 1);
      if (max < 1) { min = 1; max = 1; }
      entries.push({ item: it.id, min, max, chance: Math.round(chance * 65535), flags, age: e.blockAge || 0, name: e.item });
    }
  }
  first.push(entries.length);
  const L = [HEADER('loot_table.c — block drops (see loot_table.h).') + '#include "data/loot_table.h"\n'];
  L.push(`const struct loot_entry loot_entries[${Math.max(1, entries.length)}] = {`);
  for (const e of entries) L.push(`    {${e.item}, ${e.min}, ${e.max}, ${e.chance}, ${e.flags}, ${e.age}}, /* ${e.name} */`);
  L.push('};\n');
  if (first.length !== blocks.length + 1) throw new Error('loot_first is not per block');
  L.push('const uint16_t loot_first[BLOCK_COUNT + 1] = {');
  for (let i = 0; i < first.length; i += 20) L.push('    ' + first.slice(i, i + 20).join(', ') + ',');
  L.push('};');
  write('loot_table.c', L.join('\n') + '\n');
  header('loot_table.h', 'loot_table.h — per block id, its drops: loot_entries[loot_first[b] .. loot_first[b + 1]).\n' +
    ' * From minecraft-data\'s blockLoot; the rules for reading it are in game/loot.c.', [
    '#include <stdint.h>',
    '',
    '#include "data/block_table.h"',
    '',
    `#define LOOT_SILK_ONLY ${SILK_ONLY} /* only with silk touch */`,
    `#define LOOT_NO_SILK ${NO_SILK}   /* only without silk touch */`,
    `#define LOOT_ALT ${ALT}       /* one of the block's LOOT_ALT entries drops, weighted by chance */`,
    `#define LOOT_AGE ${AGE}       /* only when the block's age property is \`age\` (crops) */`,
    '',
    'struct loot_entry {',
    '    uint16_t item;',
    '    uint8_t min, max;        /* stack size range, inclusive */',
    '    uint16_t chance;         /* out of 65535; 65535 = always */',
    '    uint8_t flags;',
    '    uint8_t age;',
    '};',
    '',
    `extern const struct loot_entry loot_entries[${Math.max(1, entries.length)}];`,
    'extern const uint16_t loot_first[BLOCK_COUNT + 1];',
  ]);
}

// ------------------------------------------------------------------ recipes
// recipes.c: every crafting recipe in minecraft-data's `recipes` (shaped:
// inShape rows, null = empty cell; shapeless: ingredients), read by
// game/crafting.c, and each item's max durability (`items` maxDurability,
// 0 = not damageable) for tools losing durability (game/interact.c).
// minecraft-data expands a tag ingredient (any planks) into one recipe per
// alternative. Shaped recipes for one result and count with the same size
// that differ only in cells which, in each of them, all hold one item (the
// pickaxe's three planks) are folded back into one recipe whose varying
// cells accept any of those items (a set), as vanilla's tag does, so mixed
// planks craft too; other recipes stay as the data has them.
// One cell array: a shaped recipe's w*h cells row by row (0 = empty, below
// ITEM_COUNT an item, ITEM_COUNT + k the alternative set k of
// recipe_alts), a shapeless recipe's n ingredients. The data has no outShape (crafting
// remainders) for 1.20.1; none are generated (docs/design.md).
{
  const recipes = [];
  const cells = [];
  const altFirst = [0];
  const alts = [];
  const altKey = new Map();
  const ITEMS = 1 + Math.max(...mcData.itemsArray.map((it) => it.id));
  const altOf = (set) => {
    const k = set.join(',');
    if (!altKey.has(k)) { altKey.set(k, altFirst.length - 1); alts.push(...set); altFirst.push(alts.length); }
    return ITEMS + altKey.get(k);
  };
  // Folds the tag expansions of one result (see above).
  const fold = (list) => {
    const out = [];
    const groups = new Map();
    for (const r of list) {
      if (!r.inShape) { out.push(r); continue; }
      const h = r.inShape.length, w = Math.max(...r.inShape.map((row) => row.length));
      const flat = [];
      for (const row of r.inShape) for (let x = 0; x < w; x++) flat.push(row[x] == null ? 0 : row[x]);
      const key = `${r.result.count} ${w}x${h}`;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push({ r, w, h, flat });
    }
    for (const g of groups.values()) {
      const n = g[0].flat.length;
      const vary = [];
      for (let i = 0; i < n; i++) if (g.some((e) => e.flat[i] !== g[0].flat[i])) vary.push(i);
      const tagLike = g.length > 1 && vary.length > 0 &&
        g.every((e) => vary.every((i) => e.flat[i] !== 0 && e.flat[i] === e.flat[vary[0]]));
      if (!tagLike) { for (const e of g) out.push(e.r); continue; }
      const set = [...new Set(g.map((e) => e.flat[vary[0]]))];
      const flat = g[0].flat.slice();
      for (const i of vary) flat[i] = { alt: set };
      const rows = [];
      for (let y = 0; y < g[0].h; y++) rows.push(flat.slice(y * g[0].w, (y + 1) * g[0].w));
      out.push({ inShape: rows, result: g[0].r.result, folded: g.length });
    }
    return out;
  };
  const ids = Object.keys(mcData.recipes).map(Number).sort((a, b) => a - b);
  for (const id of ids) {
    for (const r of fold(mcData.recipes[id])) {
      const res = r.result;
      if (!res || !mcData.items[res.id]) throw new Error(`recipe for ${id}: unknown result`);
      if (r.outShape) throw new Error(`recipe for ${id}: outShape is not generated yet`);
      const first = cells.length;
      let w = 0, h = 0, n;
      const cell = (c) => {
        if (c === null || c === undefined || c === 0) return 0;
        if (c.alt) return altOf(c.alt);
        if (typeof c !== 'number' || !mcData.items[c]) throw new Error(`recipe for ${id}: bad ingredient ${JSON.stringify(c)}`);
        return c;
      };
      if (r.inShape) {
        h = r.inShape.length;
        w = Math.max(...r.inShape.map((row) => row.length));
        if (w > 3 || h > 3) throw new Error(`recipe for ${id}: ${w}x${h}`);
        for (const row of r.inShape) for (let x = 0; x < w; x++) cells.push(cell(row[x]));
        n = w * h;
      } else {
        if (r.ingredients.length > 9) throw new Error(`recipe for ${id}: ${r.ingredients.length} ingredients`);
        for (const c of r.ingredients) cells.push(cell(c));
        n = r.ingredients.length;
      }
      recipes.push({ result: res.id, count: res.count, w, h, n, first, name: mcData.items[res.id].name });
    }
  }
  const L = [HEADER('recipes.c — crafting recipes and item durability (see recipes.h).') + '#include "data/recipes.h"\n'];
  L.push(`const struct recipe recipes[RECIPE_COUNT] = {`);
  for (const r of recipes) L.push(`    {${r.result}, ${r.count}, ${r.w}, ${r.h}, ${r.n}, ${r.first}}, /* ${r.name}${r.w ? '' : ' (shapeless)'} */`);
  L.push('};\n');
  L.push(`const uint16_t recipe_cells[${cells.length}] = {`);
  for (let i = 0; i < cells.length; i += 16) L.push('    ' + cells.slice(i, i + 16).join(', ') + ',');
  L.push('};\n');
  const dur = [];
  for (let i = 0; i < 1 + Math.max(...mcData.itemsArray.map((it) => it.id)); i++) dur.push(mcData.items[i] && mcData.items[i].maxDurability || 0);
  L.push(`const uint16_t recipe_alt_first[RECIPE_ALT_COUNT + 1] = {`);
  for (let i = 0; i < altFirst.length; i += 20) L.push('    ' + altFirst.slice(i, i + 20).join(', ') + ',');
  L.push('};\n');
  L.push(`const uint16_t recipe_alts[${Math.max(1, alts.length)}] = {`);
  for (let i = 0; i < alts.length; i += 16) L.push('    ' + alts.slice(i, i + 16).join(', ') + ',');
  L.push('};\n');
  L.push(`const uint16_t item_max_damage[ITEM_COUNT] = {`);
  for (let i = 0; i < dur.length; i += 20) L.push('    ' + dur.slice(i, i + 20).join(', ') + ',');
  L.push('};\n');
  // From enchantCategories: the armour slot an item goes in (player window
  // 5 head .. 8 feet; elytra and carved pumpkins are only `wearable` in the
  // data, so they are not placed by shift-click) and the wear of breaking a
  // block with it (vanilla: diggers 1, swords and the trident 2).
  const cats = (i) => (mcData.items[i] && mcData.items[i].enchantCategories) || [];
  const equip = dur.map((_, i) => { const c = cats(i); return c.includes('armor_head') ? 5 : c.includes('armor_chest') ? 6 : c.includes('armor_legs') ? 7 : c.includes('armor_feet') ? 8 : 0; });
  const wear = dur.map((_, i) => { const c = cats(i); return c.includes('digger') ? 1 : c.includes('weapon') || c.includes('trident') ? 2 : 0; });
  L.push(`const uint8_t item_equip_slot[ITEM_COUNT] = {`);
  for (let i = 0; i < equip.length; i += 30) L.push('    ' + equip.slice(i, i + 30).join(', ') + ',');
  L.push('};\n');
  L.push(`const uint8_t item_mine_wear[ITEM_COUNT] = {`);
  for (let i = 0; i < wear.length; i += 30) L.push('    ' + wear.slice(i, i + 30).join(', ') + ',');
  L.push('};');
  write('recipes.c', L.join('\n') + '\n');
  header('recipes.h', 'recipes.h — crafting recipes from minecraft-data\'s `recipes`: shaped (w x h cells,\n' +
    ' * row by row, 0 = empty) or shapeless (w = h = 0, n ingredients), each a slice\n' +
    ' * recipe_cells[first .. first + n); and item_max_damage (0 = no durability).\n' +
    ' * The matching rules (offsets, mirroring, shapeless multisets) are in game/crafting.c.', [
    '#include <stdint.h>',
    '',
    '#include "data/block_table.h"',
    '',
    `#define RECIPE_COUNT ${recipes.length}`,
    `#define RECIPE_ALT_COUNT ${altFirst.length - 1} /* alternative sets (folded tags) */`,
    '',
    'struct recipe {',
    '    uint16_t result;',
    '    uint8_t count;',
    '    uint8_t w, h; /* 0 x 0: shapeless */',
    '    uint8_t n;    /* cells (shaped: w * h) or ingredients */',
    '    uint16_t first;',
    '};',
    '',
    'extern const struct recipe recipes[RECIPE_COUNT];',
    `extern const uint16_t recipe_cells[${cells.length}];`,
    '/* A cell >= ITEM_COUNT accepts any of recipe_alts[recipe_alt_first[k] .. recipe_alt_first[k + 1]),',
    ' * k = cell - ITEM_COUNT. */',
    'extern const uint16_t recipe_alt_first[RECIPE_ALT_COUNT + 1];',
    `extern const uint16_t recipe_alts[${Math.max(1, alts.length)}];`,
    'extern const uint16_t item_max_damage[ITEM_COUNT];',
    '/* Player window armour slot (5 head, 6 chest, 7 legs, 8 feet), 0 = none. */',
    'extern const uint8_t item_equip_slot[ITEM_COUNT];',
    '/* Durability lost breaking a block (hardness > 0) with the item, 0 = none. */',
    'extern const uint8_t item_mine_wear[ITEM_COUNT];',
  ]);
}

// ------------------------------------------------------------------ combat (issue 14: health, combat, death)
// combat_table.{c,h} for game/health.c, game/combat.c and game/health_rules.c:
//   * the damage types of the registry codec (the ids Damage Event carries),
//     with their message_id, food exhaustion and death message type;
//   * the foods (minecraft-data foods: food points, saturation points);
//   * the English text of every death.* key (language.json), for the log line;
//   * weapon attack damage and speed, armour points and toughness. minecraft-data
//     1.20 has neither (its items carry no attributes), so they are computed
//     here the way vanilla builds them: a tool's damage is its kind's base plus
//     its tier's bonus, its speed the kind's (Tiers and the Item constructors
//     in vanilla's Items.java); armour from ArmorMaterials. The item ids still
//     come from minecraft-data; a name this rule does not know stays a fist.
{
  const dt = mcData.loginPacket.dimensionCodec.value['minecraft:damage_type'].value.value.value.value
    .map((e) => ({ id: e.id.value, name: e.name.value, el: e.element.value }))
    .sort((a, b) => a.id - b.id);
  dt.forEach((d, i) => { if (d.id !== i) throw new Error('damage type ids are not dense'); });
  const DMT = { default: 0, fall_variants: 1, intentional_game_design: 2 };
  const foods = mcData.foodsArray.slice().sort((a, b) => a.id - b.id);
  const deathKeys = Object.keys(mcData.language).filter((k) => k.startsWith('death.')).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // Tiers: attack damage bonus (vanilla Tiers enum).
  const TIER = { wooden: 0, stone: 1, iron: 2, diamond: 3, golden: 0, netherite: 4 };
  // Per kind: base damage (before the tier bonus) and attack speed modifier,
  // per tier where vanilla gives each tier its own (axes, hoes).
  const KIND = {
    sword: () => [3, -2.4],
    shovel: () => [1.5, -3.0],
    pickaxe: () => [1, -2.8],
    axe: (t) => ({ wooden: [6, -3.2], stone: [7, -3.2], iron: [6, -3.1], diamond: [5, -3.0], golden: [6, -3.0], netherite: [5, -3.0] })[t],
    hoe: (t) => ({ wooden: [0, -3.0], stone: [-1, -2.0], iron: [-2, -1.0], diamond: [-3, 0], golden: [0, -3.0], netherite: [-4, 0] })[t],
  };
  const weapons = [];
  for (const it of mcData.itemsArray.slice().sort((a, b) => a.id - b.id)) {
    const m = /^(wooden|stone|iron|diamond|golden|netherite)_(sword|shovel|pickaxe|axe|hoe)$/.exec(it.name);
    let dmg, speed;
    if (m) {
      const [base, sp] = KIND[m[2]](m[1]);
      dmg = base + TIER[m[1]];
      speed = sp;
    } else if (it.name === 'trident') {
      [dmg, speed] = [8, -2.9];
    } else continue;
    // The player's attributes: attack damage 1 + modifier, attack speed 4 + modifier.
    weapons.push({ item: it.id, damage: 1 + dmg, speed: 4 + speed, name: it.name });
  }
  // ArmorMaterials: defense per slot (boots, leggings, chestplate, helmet), toughness, knockback resistance.
  const MAT = {
    leather: [[1, 2, 3, 1], 0, 0], chainmail: [[1, 4, 5, 2], 0, 0], iron: [[2, 5, 6, 2], 0, 0],
    golden: [[1, 3, 5, 2], 0, 0], diamond: [[3, 6, 8, 3], 2, 0], netherite: [[3, 6, 8, 3], 3, 0.1],
  };
  const PIECE = { boots: 0, leggings: 1, chestplate: 2, helmet: 3 };
  const armour = [];
  for (const it of mcData.itemsArray.slice().sort((a, b) => a.id - b.id)) {
    const m = /^(leather|chainmail|iron|golden|diamond|netherite)_(boots|leggings|chestplate|helmet)$/.exec(it.name);
    if (m) {
      const [def, tough, kb] = MAT[m[1]];
      armour.push({ item: it.id, slot: PIECE[m[2]], points: def[PIECE[m[2]]], tough, kb, name: it.name });
    } else if (it.name === 'turtle_helmet') {
      armour.push({ item: it.id, slot: 3, points: 2, tough: 0, kb: 0, name: it.name });
    }
  }
  const cstr = (s) => JSON.stringify(s);
  const L = [HEADER('combat_table.c — damage types, foods, death messages, weapons and armour (see combat_table.h).') +
    '#include "data/combat_table.h"\n'];
  L.push(`const struct damage_type_info damage_types[DAMAGE_TYPE_COUNT] = {`);
  for (const d of dt) {
    const ex = d.el.exhaustion ? Math.fround(d.el.exhaustion.value) : 0;
    const dm = d.el.death_message_type ? DMT[d.el.death_message_type.value] : 0;
    if (dm === undefined) throw new Error('unknown death_message_type ' + d.el.death_message_type.value);
    L.push(`    {${cstr(d.el.message_id.value)}, ${ex.toPrecision(3)}f, ${dm}}, /* ${d.name} */`);
  }
  L.push('};\n');
  L.push(`const struct food_info food_table[FOOD_COUNT] = {`);
  for (const f of foods) L.push(`    {${f.id}, ${f.foodPoints}, ${Math.fround(f.saturation).toPrecision(4)}f}, /* ${f.name} */`);
  L.push('};\n');
  L.push(`const struct death_text death_texts[DEATH_TEXT_COUNT] = {`);
  for (const k of deathKeys) L.push(`    {${cstr(k)}, ${cstr(mcData.language[k])}},`);
  L.push('};\n');
  L.push(`const struct weapon_info weapon_table[WEAPON_COUNT] = {`);
  for (const w of weapons) L.push(`    {${w.item}, ${w.damage.toFixed(1)}f, ${w.speed.toFixed(1)}f}, /* ${w.name} */`);
  L.push('};\n');
  L.push(`const struct armour_info armour_table[ARMOUR_COUNT] = {`);
  for (const a of armour) L.push(`    {${a.item}, ${a.slot}, ${a.points}, ${a.tough}, ${a.kb.toFixed(1)}f}, /* ${a.name} */`);
  L.push('};');
  write('combat_table.c', L.join('\n') + '\n');
  header('combat_table.h', 'combat_table.h — per damage type (the registry codec\'s minecraft:damage_type ids),\n' +
    ' * its message id, food exhaustion and death message type; the foods; the en_us text\n' +
    ' * of the death.* keys (sorted by key); weapons\' attack damage and speed; armour.\n' +
    ' * Every table but damage_types and death_texts is sorted by item id.', [
    '#include <stdint.h>',
    '',
    ...dt.map((d) => `#define DAMAGE_TYPE_${ident(d.name)} ${d.id}`),
    `#define DAMAGE_TYPE_COUNT ${dt.length}`,
    `#define FOOD_COUNT ${foods.length}`,
    `#define DEATH_TEXT_COUNT ${deathKeys.length}`,
    `#define WEAPON_COUNT ${weapons.length}`,
    `#define ARMOUR_COUNT ${armour.length}`,
    '',
    '#define DEATH_MSG_DEFAULT 0',
    '#define DEATH_MSG_FALL_VARIANTS 1',
    '#define DEATH_MSG_INTENTIONAL 2',
    '',
    'struct damage_type_info {',
    '    const char *message_id; /* death.attack.<message_id> */',
    '    float exhaustion;       /* food exhaustion when it hurts */',
    '    uint8_t death_message;  /* DEATH_MSG_* */',
    '};',
    '',
    'struct food_info {',
    '    uint16_t item;',
    '    uint8_t points;   /* food level restored */',
    '    float saturation; /* saturation points restored (points x modifier x 2) */',
    '};',
    '',
    'struct death_text {',
    '    const char *key, *en;',
    '};',
    '',
    'struct weapon_info {',
    '    uint16_t item;',
    '    float damage; /* the player\'s attack damage holding it (1 + the item\'s modifier) */',
    '    float speed;  /* attacks per second holding it (4 + the modifier) */',
    '};',
    '',
    'struct armour_info {',
    '    uint16_t item;',
    '    uint8_t slot; /* 0 boots, 1 leggings, 2 chestplate, 3 helmet */',
    '    uint8_t points, toughness;',
    '    float knockback_resistance;',
    '};',
    '',
    'extern const struct damage_type_info damage_types[DAMAGE_TYPE_COUNT];',
    'extern const struct food_info food_table[FOOD_COUNT];',
    'extern const struct death_text death_texts[DEATH_TEXT_COUNT];',
    'extern const struct weapon_info weapon_table[WEAPON_COUNT];',
    'extern const struct armour_info armour_table[ARMOUR_COUNT];',
  ]);
}

// ------------------------------------------------------------------ entity types and loot
// entity_table.{c,h} (issue 15, game/mob*.c): per entity type id its name,
// box and category (minecraft-data `entities`), and what killing it drops
// (minecraft-data `entityLoot`: per entry an item, a chance, a count range
// and whether only a player's kill drops it). The data flattens vanilla's
// loot functions: counts are the tables' base ranges (a cow: 1 leather and
// 1 beef, where vanilla rolls 0-2 and 1-3), and looting and "smelt when on
// fire" are not in it (docs/gameplay.md, "Mobs").
{
  const types = mcData.entitiesArray.slice().sort((a, b) => a.id - b.id);
  types.forEach((t, i) => { if (t.id !== i) throw new Error(`entity ids are not dense at ${t.name}`); });
  const CATS = ['other', 'player', 'living', 'mob', 'animal', 'passive', 'ambient', 'water_creature', 'hostile', 'projectile'];
  const PLAYER_KILL = 1;
  const entries = [];
  const first = [];
  for (const t of types) {
    if (!CATS.includes(t.type)) throw new Error(`entity ${t.name}: unknown type ${t.type}`);
    first.push(entries.length);
    const l = mcData.entityLoot[t.name];
    if (!l) continue;
    for (const d of l.drops) {
      const it = mcData.itemsByName[d.item];
      if (!it) throw new Error(`entityLoot ${t.name}: unknown item ${d.item}`);
      const [a, z] = d.stackSizeRange || [1, 1];
      const min = Number.isFinite(a) ? Math.max(0, a) : 1;
      const max = Math.max(min, Number.isFinite(z) ? z : min, 1);
      entries.push({ item: it.id, min, max, chance: Math.round(Math.min(1, d.dropChance) * 65535), flags: d.playerKill ? PLAYER_KILL : 0, name: d.item });
    }
  }
  first.push(entries.length);
  const L = [HEADER('entity_table.c — entity types and their drops (see entity_table.h).') + '#include "data/entity_table.h"\n'];
  L.push('const struct entity_type_info entity_types[ENTITY_TYPE_COUNT] = {');
  const f32 = (v) => (Number.isFinite(v) ? (Number.isInteger(v) ? v.toFixed(1) : String(v)) : '0.0') + 'f';
  for (const t of types)
    L.push(`    {"${t.name}", "${t.displayName.replace(/"/g, '')}", ${f32(t.width)}, ${f32(t.height)}, ENTITY_CAT_${ident(t.type)}},`);
  L.push('};\n');
  L.push(`const struct entity_loot_entry entity_loot[${Math.max(1, entries.length)}] = {`);
  for (const e of entries) L.push(`    {${e.item}, ${e.min}, ${e.max}, ${e.chance}, ${e.flags}}, /* ${e.name} */`);
  L.push('};\n');
  L.push('const uint16_t entity_loot_first[ENTITY_TYPE_COUNT + 1] = {');
  for (let i = 0; i < first.length; i += 20) L.push('    ' + first.slice(i, i + 20).join(', ') + ',');
  L.push('};');
  write('entity_table.c', L.join('\n') + '\n');
  header('entity_table.h', 'entity_table.h — per entity type id (data/entities.h): its name, display name,\n' +
    ' * box and minecraft-data category; its drops are\n' +
    ' * entity_loot[entity_loot_first[t] .. entity_loot_first[t + 1]) (minecraft-data entityLoot).', [
    '#include <stdint.h>',
    '',
    `#define ENTITY_TYPE_COUNT ${types.length}`,
    `#define ENTITY_LOOT_PLAYER_KILL ${PLAYER_KILL} /* only when a player killed it */`,
    '',
    'enum entity_category {',
    ...CATS.map((c) => `    ENTITY_CAT_${ident(c)},`),
    '};',
    '',
    'struct entity_type_info {',
    '    const char *name;         /* without "minecraft:" */',
    '    const char *display_name; /* en_us */',
    '    float width, height;      /* the bounding box, blocks */',
    '    uint8_t category;         /* enum entity_category */',
    '};',
    '',
    'struct entity_loot_entry {',
    '    uint16_t item;',
    '    uint8_t min, max; /* count range, inclusive */',
    '    uint16_t chance;  /* out of 65535; 65535 = always */',
    '    uint8_t flags;    /* ENTITY_LOOT_* */',
    '};',
    '',
    'extern const struct entity_type_info entity_types[ENTITY_TYPE_COUNT];',
    `extern const struct entity_loot_entry entity_loot[${Math.max(1, entries.length)}];`,
    'extern const uint16_t entity_loot_first[ENTITY_TYPE_COUNT + 1];',
  ]);
}

// ------------------------------------------------------------------ enchantments and effects
// enchant_table.{c,h} (issue 14, game/enchant.c): per enchantment id (the
// 1.20.1 registry order, minecraft-data `enchantments`) its name, maximum
// level, category and the enchantments it excludes (a bit set over ids,
// made symmetric: vanilla's isCompatibleWith asks both), and per item id
// the categories it can be enchanted in (minecraft-data items'
// enchantCategories, a bit set over enum enchant_category).
// effect_table.{c,h} (game/effects.c): per mob effect id (1-based as the
// protocol numbers them, minecraft-data `effects`) its registry name (the
// data's name is CamelCase: "FireResistance" -> "fire_resistance") and
// whether it is beneficial.
{
  const ench = mcData.enchantmentsArray.slice().sort((a, b) => a.id - b.id);
  ench.forEach((e, i) => { if (e.id !== i) throw new Error(`enchantment ids are not dense at ${e.name}`); });
  if (ench.length > 64) throw new Error('more than 64 enchantments: the exclude set is a uint64_t');
  const cats = [...new Set(ench.map((e) => e.category))].sort();
  const idOf = (n) => { const e = mcData.enchantmentsByName[n]; if (!e) throw new Error(`unknown enchantment ${n}`); return e.id; };
  const E = [HEADER('enchant_table.c — enchantments (see enchant_table.h).') + '#include "data/enchant_table.h"\n'];
  E.push('const struct enchant_info enchant_table[ENCHANT_COUNT] = {');
  for (const e of ench) {
    let ex = 0n;
    for (const n of e.exclude || []) ex |= 1n << BigInt(idOf(n));
    for (const o of ench) if ((o.exclude || []).includes(e.name)) ex |= 1n << BigInt(o.id);
    E.push(`    {"${e.name}", "${e.displayName}", ${e.maxLevel}, ENCHANT_CAT_${ident(e.category)}, ${e.treasureOnly ? 1 : 0}, ${e.curse ? 1 : 0}, 0x${ex.toString(16)}ull},`);
  }
  E.push('};\n');
  if (cats.length > 16) throw new Error('more than 16 enchantment categories: item_enchant_cats is a uint16_t');
  const itemCats = [];
  const itemCount = mcData.itemsArray.length;
  for (let i = 0; i < itemCount; i++) {
    const it = mcData.items[i];
    let m = 0;
    for (const c of (it && it.enchantCategories) || []) {
      const k = cats.indexOf(c);
      if (k < 0) throw new Error(`item ${it.name}: unknown enchantment category ${c}`);
      m |= 1 << k;
    }
    itemCats.push(m);
  }
  E.push('const uint16_t item_enchant_cats[ITEM_COUNT] = {');
  for (let i = 0; i < itemCats.length; i += 20) E.push('    ' + itemCats.slice(i, i + 20).join(', ') + ',');
  E.push('};');
  write('enchant_table.c', E.join('\n') + '\n');
  header('enchant_table.h', 'enchant_table.h — per enchantment id (registry order): its name (without\n' +
    ' * "minecraft:"), en_us name, maximum level, category, and the ids it cannot\n' +
    ' * be combined with (minecraft-data enchantments); per item id the\n' +
    ' * categories it takes (bit c: enum enchant_category c).', [
    '#include <stdint.h>',
    '',
    '#include "data/block_table.h"',
    '',
    `#define ENCHANT_COUNT ${ench.length}`,
    ...ench.map((e) => `#define ENCH_${ident(e.name)} ${e.id}`),
    '',
    'enum enchant_category {',
    ...cats.map((c) => `    ENCHANT_CAT_${ident(c)},`),
    '};',
    '',
    'struct enchant_info {',
    '    const char *name, *display_name;',
    '    uint8_t max_level;',
    '    uint8_t category; /* enum enchant_category */',
    '    uint8_t treasure, curse;',
    '    uint64_t exclude; /* bit i: cannot be combined with enchantment i */',
    '};',
    '',
    'extern const struct enchant_info enchant_table[ENCHANT_COUNT];',
    'extern const uint16_t item_enchant_cats[ITEM_COUNT];',
  ]);

  const eff = mcData.effectsArray.slice().sort((a, b) => a.id - b.id);
  eff.forEach((e, i) => { if (e.id !== i + 1) throw new Error(`effect ids are not dense at ${e.name}`); });
  // The data's names are CamelCase; the registry's are snake_case, and one
  // differs beyond the case (BadLuck is minecraft:unluck).
  const snake = (s) => (s === 'BadLuck' ? 'unluck' : s.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase());
  const F = [HEADER('effect_table.c — mob effects (see effect_table.h).') + '#include "data/effect_table.h"\n'];
  F.push('const struct effect_info effect_table[EFFECT_COUNT + 1] = {');
  F.push('    {"", "", 0}, /* 0: none */');
  for (const e of eff) F.push(`    {"${snake(e.name)}", "${e.displayName}", ${e.type === 'good' ? 1 : 0}},`);
  F.push('};');
  write('effect_table.c', F.join('\n') + '\n');
  header('effect_table.h', 'effect_table.h — per mob effect id (1..EFFECT_COUNT, the protocol\'s): its\n' +
    ' * registry name (without "minecraft:"), display name and whether it is\n' +
    ' * beneficial (minecraft-data effects).', [
    '#include <stdint.h>',
    '',
    `#define EFFECT_COUNT ${eff.length}`,
    ...eff.map((e) => `#define EFFECT_${ident(snake(e.name))} ${e.id}`),
    '',
    'struct effect_info {',
    '    const char *name, *display_name;',
    '    uint8_t beneficial;',
    '};',
    '',
    'extern const struct effect_info effect_table[EFFECT_COUNT + 1];',
  ]);
}

// ------------------------------------------------------------------ blast resistance
// blast_table.{c,h} (issue 15, game/explosion.c): per block id its blast
// resistance (minecraft-data `blocks` resistance: vanilla's
// Block.getExplosionResistance; water and lava 100, obsidian 1200,
// bedrock 3,600,000). A ray of an explosion loses (resistance + 0.3) × 0.3
// in each block it crosses (Explosion.explode).
{
  const blocks = mcData.blocksArray.slice().sort((a, b) => a.id - b.id);
  blocks.forEach((b, i) => { if (b.id !== i) throw new Error(`block ids are not dense at ${b.name}`); });
  const L = [HEADER('blast_table.c — blast resistance per block id (see blast_table.h).') + '#include "data/blast_table.h"\n'];
  L.push('const float block_blast_resistance[BLOCK_COUNT] = {');
  for (const b of blocks) {
    const r = b.resistance;
    if (!Number.isFinite(r) || r < 0) throw new Error(`block ${b.name}: resistance ${r}`);
    L.push(`    ${Number.isInteger(r) ? r.toFixed(1) : String(r)}f, /* ${b.name} */`);
  }
  L.push('};');
  write('blast_table.c', L.join('\n') + '\n');
  header('blast_table.h', 'blast_table.h — per block id (data/block_table.h), its blast resistance\n' +
    ' * (minecraft-data blocks: vanilla\'s Block.getExplosionResistance).', [
    '#include "data/block_table.h"',
    '',
    'extern const float block_blast_resistance[BLOCK_COUNT];',
  ]);
}

// ------------------------------------------------------------------ later versions
// translate_<N>.{c,h} (src/proto/protocol.h, issue 22): what a client of a
// later version needs in its own ids. The world stays 1.20.1's (blocks.h and
// the Anvil files); each later protocol gets tables from 1.20.1's ids to its
// own, matched by name (RENAMED below for the names vanilla changed) and,
// for block states, by property values (a property the later version added
// takes its default; a value it lacks, the default too). Biome ids are the
// order of the biome registry this file sends in the configuration state.
// The registries are vanilla's (minecraft-data loginPacket), one Registry
// Data payload each (id, entries with their data as network NBT), for a
// client that knows no packs (mineflayer) as much as for a vanilla one.
{
  const RENAMED = {
    block: { grass: 'short_grass', chain: 'iron_chain' },
    item: { grass: 'short_grass', chain: 'iron_chain', scute: 'turtle_scute' },
    entity: { boat: 'oak_boat', chest_boat: 'oak_chest_boat', potion: 'splash_potion' },
  };
  // Index of a state inside its block: minecraft-data's order, the last
  // property varying fastest (prismarine-block's rule).
  const stateProps = (b, sid) => {
    let rest = sid - b.minStateId;
    const out = {};
    for (let i = (b.states || []).length - 1; i >= 0; i--) {
      const st = b.states[i];
      const n = st.num_values;
      const k = rest % n;
      rest = Math.floor(rest / n);
      out[st.name] = st.type === 'bool' ? String(k === 0) : st.values[k];
    }
    return out;
  };
  const defaultProps = (b) => stateProps(b, b.defaultState);
  const stateOf = (b, props) => {
    const def = defaultProps(b);
    let idx = 0;
    for (const st of b.states || []) {
      const vals = st.type === 'bool' ? ['true', 'false'] : st.values;
      let k = vals.indexOf(props[st.name]);
      if (k < 0) k = vals.indexOf(def[st.name]);
      idx = idx * st.num_values + k;
    }
    return b.minStateId + idx;
  };
  const fromBlocks = mcData.blocksArray.slice().sort((a, b) => a.id - b.id);
  const arrLines = (vals, per = 12) => {
    const L = [];
    for (let i = 0; i < vals.length; i += per) L.push('    ' + vals.slice(i, i + per).join(', ') + ',');
    return L;
  };
  for (const ver of VERSIONS.slice(1)) {
    const d = require('minecraft-data')(ver);
    const num = d.version.version;
    const name = (kind, n) => RENAMED[kind][n] || n;
    // block states
    const stateMap = [];
    const missingBlocks = [];
    let toCount = 0;
    for (const b of d.blocksArray) toCount = Math.max(toCount, b.maxStateId + 1);
    for (const b of fromBlocks) {
      const nb = d.blocksByName[name('block', b.name)];
      if (!nb) missingBlocks.push(b.name);
      for (let sid = b.minStateId; sid <= b.maxStateId; sid++) {
        stateMap[sid] = nb ? stateOf(nb, stateProps(b, sid)) : d.blocksByName.air.defaultState;
      }
    }
    if (missingBlocks.length) throw new Error(`${ver} lacks blocks ${missingBlocks.join(', ')}: add them to RENAMED`);
    // biomes, in the order the registry is sent
    const codec = d.loginPacket.dimensionCodec;
    const biomeKeys = codec['minecraft:worldgen/biome'].entries.map((e) => e.key.replace(/^minecraft:/, ''));
    const biomeMap = mcData.biomesArray.slice().sort((a, b) => a.id - b.id).map((b) => {
      const k = biomeKeys.indexOf(b.name);
      if (k < 0) throw new Error(`${ver} lacks biome ${b.name}`);
      return k;
    });
    const idMap = (kind, from, byName) => from.slice().sort((a, b) => a.id - b.id).map((x) => {
      const y = byName[name(kind, x.name)];
      if (!y) throw new Error(`${ver} lacks ${kind} ${x.name}: add it to RENAMED`);
      return y.id;
    });
    const itemMap = idMap('item', mcData.itemsArray, d.itemsByName);
    const entityMap = idMap('entity', mcData.entitiesArray, d.entitiesByName);
    const bits = (n) => Math.ceil(Math.log2(n));
    const componentId = (name) => {
      const m = d.protocol.types.SlotComponentType[1].mappings;
      const k = Object.keys(m).find((x) => m[x] === name);
      if (k === undefined) throw new Error(`${ver}: no item component ${name}`);
      return Number(k);
    };
    const regIndex = (reg, key) => {
      const k = codec[reg] ? codec[reg].entries.findIndex((e) => e.key === key) : -1;
      if (k < 0) throw new Error(`${ver}: no ${key} in ${reg}`);
      return k;
    };
    // Registry Data payloads (after the packet id): identifier, entries
    // (key, has data, data as nameless network NBT).
    const regs = [];
    for (const key of Object.keys(codec)) {
      const parts = [];
      const str = (s) => { const b = Buffer.from(s, 'utf8'); parts.push(varint(b.length), b); };
      str(key);
      parts.push(varint(codec[key].entries.length));
      for (const e of codec[key].entries) {
        str(e.key);
        if (e.value === undefined || e.value === null) { parts.push(Buffer.from([0])); continue; }
        parts.push(Buffer.from([1]));
        const named = nbt.writeUncompressed({ type: 'compound', name: '', value: e.value.value }, 'big');
        parts.push(named.subarray(0, 1), named.subarray(3)); // tag type, no name
      }
      regs.push({ key, bytes: Buffer.concat(parts) });
    }
    const C = [HEADER(`translate_${num}.c — 1.20.1's ids as protocol ${num}'s (${ver}); its registries (see translate_${num}.h).`, ver),
      `#include "data/translate_${num}.h"`, ''];
    C.push(`const uint16_t block_state_to_${num}[BLOCK_STATE_COUNT] = {`, ...arrLines(stateMap), '};', '');
    C.push(`const uint16_t biome_to_${num}[BIOME_COUNT] = {`, ...arrLines(biomeMap), '};', '');
    C.push(`const uint16_t item_to_${num}[ITEM_COUNT] = {`, ...arrLines(itemMap), '};', '');
    C.push(`const uint16_t entity_type_to_${num}[ENTITY_TYPE_COUNT] = {`, ...arrLines(entityMap), '};', '');
    const all = Buffer.concat(regs.map((r) => r.bytes));
    // A string literal as registry_codec.c's (one byte more: its NUL, never sent).
    C.push(`const unsigned char registry_data_${num}[${all.length + 1}] =`, ...cLiteralLines(all), ';', '');
    let off = 0;
    C.push(`const struct registry_payload registry_payloads_${num}[REGISTRY_COUNT_${num}] = {`);
    for (const r of regs) { C.push(`    {"${r.key}", ${off}, ${r.bytes.length}},`); off += r.bytes.length; }
    C.push('};');
    write(`translate_${num}.c`, C.join('\n') + '\n');
    header(`translate_${num}.h`, `translate_${num}.h — for protocol ${num} (${ver}) clients: 1.20.1's block states, biomes,\n` +
      ` * items and entity types as ${ver}'s ids (by name and property values; an added\n` +
      ' * property takes its default), and the registries of its configuration state.', [
      '#include <stdint.h>',
      '',
      '#include "data/biomes.h"',
      '#include "data/blocks.h"',
      '#include "data/block_table.h"',
      '#include "data/entity_table.h"',
      '',
      `#define BLOCK_STATE_COUNT_${num} ${toCount}`,
      `#define BLOCK_GLOBAL_BITS_${num} ${bits(toCount)}`,
      `#define BIOME_COUNT_${num} ${biomeKeys.length}`,
      `#define BIOME_GLOBAL_BITS_${num} ${bits(biomeKeys.length)}`,
      `#define REGISTRY_COUNT_${num} ${regs.length}`,
      '/* Indices in the registries above (Login\'s dimension, Update Time\'s clock). */',
      `#define DIMENSION_TYPE_OVERWORLD_${num} ${regIndex('minecraft:dimension_type', 'minecraft:overworld')}`,
      `#define WORLD_CLOCK_OVERWORLD_${num} ${regIndex('minecraft:world_clock', 'minecraft:overworld')}`,
      '/* Item component type ids (a slot\'s tool wear). */',
      `#define ITEM_COMPONENT_DAMAGE_${num} ${componentId('damage')}`,
      '',
      `extern const uint16_t block_state_to_${num}[BLOCK_STATE_COUNT];`,
      `extern const uint16_t biome_to_${num}[BIOME_COUNT];`,
      `extern const uint16_t item_to_${num}[ITEM_COUNT];`,
      `extern const uint16_t entity_type_to_${num}[ENTITY_TYPE_COUNT];`,
      '',
      '#ifndef MC_REGISTRY_PAYLOAD',
      '#define MC_REGISTRY_PAYLOAD',
      '/* One Registry Data packet\'s payload: registry_data_<N>[off .. off + len). */',
      'struct registry_payload {',
      '    const char *id;',
      '    uint32_t off, len;',
      '};',
      '#endif',
      `extern const unsigned char registry_data_${num}[${all.length + 1}];`,
      `extern const struct registry_payload registry_payloads_${num}[REGISTRY_COUNT_${num}];`,
    ]);
  }
}
