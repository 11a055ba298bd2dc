'use strict'
// Light levels decoded from Chunk Data / Update Light packets the way the
// vanilla client reads them (DataLayer: byte i >> 1, low nibble for even i).
// prismarine-chunk (mineflayer's getBlockLight) reads the arrays as
// big-endian longs, which permutes the nibbles, so tests read the packets.

/**
 * Light level at world position `pos` from the newest packet (Chunk Data or
 * Update Light) covering its column; undefined when no packet covers it or
 * the section is in neither mask. `kind` is 'sky' or 'block'.
 */
function lightAt (packets, pos, kind) {
  const cx = Math.floor(pos.x / 16)
  const cz = Math.floor(pos.z / 16)
  for (let k = packets.length - 1; k >= 0; k--) {
    const p = packets[k]
    const px = p.chunkX !== undefined ? p.chunkX : p.x
    const pz = p.chunkZ !== undefined ? p.chunkZ : p.z
    if (px !== cx || pz !== cz) continue
    const L = ((pos.y + 64) >> 4) + 1 // light section index: one below the world first
    const has = (mask, i) => mask.length > 0 && ((i < 32 ? mask[0][1] >>> i : mask[0][0] >>> (i - 32)) & 1) === 1
    const mask = p[kind + 'LightMask']
    if (!has(mask, L)) return has(p['empty' + kind[0].toUpperCase() + kind.slice(1) + 'LightMask'], L) ? 0 : undefined
    let n = 0
    for (let i = 0; i < L; i++) if (has(mask, i)) n++
    const arr = p[kind + 'Light'][n]
    const i = ((pos.y + 64) & 15) << 8 | (((pos.z % 16) + 16) % 16) << 4 | (((pos.x % 16) + 16) % 16)
    const byte = arr[i >> 1]
    return (i & 1) ? byte >> 4 : byte & 15
  }
  return undefined
}

/** Collects a client's map_chunk and update_light packets, in order. */
function collectLight (client) {
  const packets = []
  client.on('map_chunk', (p) => packets.push(p))
  client.on('update_light', (p) => packets.push(p))
  return packets
}

module.exports = { lightAt, collectLight }
