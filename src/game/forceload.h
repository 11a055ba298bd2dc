/*
 * forceload.h — chunks kept loaded by /forceload, as vanilla's
 * ForcedChunksSavedData: the set of chunk positions, each held loaded (a
 * viewer reference on the world's chunk, world/world.h invariant 4) so it
 * is never unloaded while nobody sees it, kept in <world>/data/chunks.dat.
 *
 * File (gzip NBT, vanilla's SavedData layout):
 *
 *   "" {DataVersion: int 3465, data: {Forced: long[] ChunkPos.toLong}}
 *   ChunkPos.toLong = (x & 0xffffffff) | (z & 0xffffffff) << 32
 *
 * Lifecycle: read at startup (a missing file: none; an unreadable one is
 * logged and left for the next save to replace); a chunk marked is asked
 * of the world at once and again every second until it is ready, then held;
 * unmarking releases it (it unloads after the world's idle delay); the file
 * is written with the world's save rounds (autosave, save-all, stop) when
 * the set changed.
 *
 * Invariants:
 *  1. At most FORCELOAD_MAX chunks; each at most once.
 *  2. held ⇔ the module owns one viewer reference on that chunk.
 */
#ifndef MC_FORCELOAD_H
#define MC_FORCELOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FORCELOAD_MAX 4096 /* chunks; each one stays in memory */

/* Startup, after the store opened: reads data/chunks.dat, starts loading. */
void forceload_init(void);
/* 1 marked / unmarked, 0 it already was / was not, -1 full. */
int forceload_set(int32_t cx, int32_t cz, bool forced);
bool forceload_has(int32_t cx, int32_t cz);
size_t forceload_count(void);
/* The i-th chunk in vanilla's listing order (ChunkPos.toLong ascending). */
void forceload_get(size_t i, int32_t *cx, int32_t *cz);
/* Unmarks every chunk. */
void forceload_clear(void);
/* A save round (the store's fill_level hook): writes data/chunks.dat if it changed. */
void forceload_save(void);

#endif
