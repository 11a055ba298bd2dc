/*
 * region.h — Anvil region files (region/r.X.Z.mca): 32×32 chunks per file,
 * written crash-safely, read defensively.
 *
 * File layout (big-endian, 4096-byte sectors):
 *
 *   offset  size        what
 *   0       4096        1024 locations, index (x & 31) + (z & 31) * 32:
 *                         bits 31..8  first sector of the chunk (0 = absent)
 *                         bits  7..0  sector count (1..255)
 *   4096    4096        1024 timestamps (u32, seconds since the epoch)
 *   8192    ...         chunk payloads, each starting on a sector:
 *                         u32 length   bytes that follow (compression byte
 *                                      + data), so length + 4 <= count * 4096
 *                         u8  type     1 gzip, 2 zlib, 3 uncompressed;
 *                                      +128: data is in c.<x>.<z>.mcc next
 *                                      to the region file (payload empty)
 *                         data         compressed chunk NBT
 *                       padded with zeros to the end of its last sector
 *
 * Caps: a payload spans at most 255 sectors (REGION_MAX_PAYLOAD bytes of
 * compressed data, vanilla's 1 MiB limit); an external .mcc file is read up
 * to REGION_MAX_EXTERNAL bytes; a file has at most 2^24 sectors (the width
 * of the offset field).
 *
 * Crash safety (the order of region_write_batch):
 *   1. new payloads go to sectors no live location points at (first fit in
 *      the free-sector bitmap, else the end of the file);
 *   2. one fsync;
 *   3. the locations and timestamps of the batch are updated, the 8 KiB
 *      header written, one fsync;
 *   4. only then the sectors of the replaced payloads become free.
 * A crash anywhere leaves every location pointing at a whole, fsynced
 * payload: the old one before step 3 completes, the new one after. If step
 * 3 fails the old sectors are never freed (until the file is reopened) and
 * the header is rewritten by the next batch, so any mix of old and new
 * entries on disk stays readable.
 *
 * Invariants:
 *  1. Every sector a location points at is marked used in the bitmap, so a
 *     new payload never lands on it; sectors 0 and 1 (the header) are
 *     always used. Locations that can never be read (into the header, zero
 *     sectors, past the end of the file) are dropped when the file is
 *     opened: those chunks read as absent, and the next header written
 *     leaves them out. The bitmap is at most 2^24 bits (2 MiB).
 *  2. `lock` guards locations, timestamps and the bitmap, and is held while
 *     a chunk's sectors are read, so a reader never sees sectors freed and
 *     reused under it. `save_lock` serialises write batches of one file.
 *  3. The region never interprets payload bytes beyond the 5-byte prefix.
 *  4. A damaged header (entries dropped by region_open, or cut short) is
 *     never rewritten before a copy is kept next to the file: the whole
 *     file as r.X.Z.mca.corrupt-<time> when it is at most
 *     REGION_BACKUP_MAX bytes, else its header (the first 8 KiB, to write
 *     back over the file) as r.X.Z.mca.corrupt-header-<time>. The copy is
 *     made by the first write batch, under save_lock; if it cannot be
 *     made the batch fails (nothing is written) and the next one tries
 *     again.
 */
#ifndef MC_REGION_H
#define MC_REGION_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REGION_SECTOR       4096
#define REGION_HEADER       (2 * REGION_SECTOR)
#define REGION_MAX_SECTORS  (1u << 24)
#define REGION_MAX_COUNT    255
#define REGION_MAX_PAYLOAD  ((size_t)REGION_MAX_COUNT * REGION_SECTOR - 5)
#define REGION_MAX_EXTERNAL ((size_t)16 << 20)
#define REGION_BACKUP_MAX   ((size_t)32 << 20) /* damaged files copied whole up to this */

enum region_compression {
    REGION_GZIP = 1,
    REGION_ZLIB = 2,
    REGION_NONE = 3,
    REGION_EXTERNAL = 128,
};

/* A corrupt chunk (bad location, length or type): not an I/O error. */
#define REGION_E_CORRUPT (-100000)

typedef struct region {
    int fd;
    bool read_only; /* opened O_RDONLY (the disk refused O_RDWR) */
    int32_t rx, rz;
    char path[512];
    pthread_mutex_t lock;
    pthread_mutex_t save_lock;
    uint32_t locations[1024];
    uint32_t timestamps[1024];
    uint8_t *used;     /* bitmap, bit per sector */
    uint32_t used_cap; /* sectors the bitmap covers (multiple of 8) */
    uint32_t nsectors; /* sectors in use or in the file: the next append goes here */
    bool header_dirty; /* a header write failed: the next batch rewrites it */
    bool damaged;      /* region_open dropped entries: copy the file aside before a header write */
} region;

/*
 * Opens path. create: make the file (with an empty, fsynced header) when
 * absent; otherwise an absent file is -ENOENT. Returns 0 with *out, or
 * -errno. Locations that point into the header or have a zero count are
 * dropped from memory (they read as absent) and reported in the log; the
 * file is then marked damaged (invariant 4).
 */
int region_open(region **out, const char *path, int32_t rx, int32_t rz, bool create);
void region_close(region *r);

typedef struct region_chunk {
    uint8_t *data; /* compressed payload (malloc, caller frees) */
    size_t len;
    uint8_t type; /* enum region_compression without the external bit */
    uint32_t timestamp;
    /* REGION_E_CORRUPT: the sectors as read (malloc, may be NULL) and why. */
    uint8_t *raw;
    size_t raw_len;
    char why[160];
} region_chunk;

/*
 * Reads chunk (lx, lz), 0..31 each. Returns 1 with out->data, 0 when the
 * chunk is absent, REGION_E_CORRUPT with out->raw and out->why, or -errno
 * for an I/O error (the chunk may be fine: retry later, never overwrite).
 */
int region_read(region *r, int lx, int lz, region_chunk *out);
void region_chunk_free(region_chunk *c);

typedef struct region_write {
    int lx, lz;
    const uint8_t *data; /* zlib-compressed chunk NBT */
    size_t len;
    int result; /* out: 0 written and durable, or -errno / -EFBIG (too big) */
} region_write;

/*
 * Writes a batch of chunks to this region as described above; `now` is the
 * timestamp to record. Returns 0 when every chunk is durable, or the first
 * error (per-chunk results say which ones are). A batch of 0 chunks only
 * rewrites a dirty header.
 */
int region_write_batch(region *r, region_write *w, size_t n, uint32_t now);

/* Counts for tests: sectors marked used, and the file's sector extent. */
uint32_t region_used_sectors(region *r);

#endif
