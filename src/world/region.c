/* region.c — see region.h. All file I/O goes through core/fileio.h. */
#include "world/region.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/fileio.h"
#include "core/log.h"

static inline uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* ------------------------------------------------------------ sector bitmap */

/* Grows the bitmap to cover sector index `s` (< REGION_MAX_SECTORS); -1 when out of memory. */
static int bitmap_cover(region *r, uint32_t s)
{
    if (s < r->used_cap) return 0;
    if (s >= REGION_MAX_SECTORS) return -1;
    uint32_t cap = r->used_cap ? r->used_cap : 1024;
    while (cap <= s) cap *= 2;
    uint8_t *n = realloc(r->used, cap / 8);
    if (!n) return -1;
    memset(n + r->used_cap / 8, 0, (cap - r->used_cap) / 8);
    r->used = n;
    r->used_cap = cap;
    return 0;
}

static inline bool sector_used(const region *r, uint32_t s)
{
    return s < r->used_cap && (r->used[s >> 3] >> (s & 7)) & 1;
}

static void mark(region *r, uint32_t first, uint32_t count, bool used)
{
    for (uint32_t s = first; s < first + count && s < r->used_cap; s++) {
        if (used)
            r->used[s >> 3] |= (uint8_t)(1u << (s & 7));
        else
            r->used[s >> 3] &= (uint8_t) ~(1u << (s & 7));
    }
}

/* Marks every live location's sectors (invariant 1); -1 when out of memory. */
static int mark_live(region *r)
{
    if (bitmap_cover(r, 1) < 0) return -1;
    mark(r, 0, 2, true);
    for (int i = 0; i < 1024; i++) {
        uint32_t loc = r->locations[i];
        if (!loc) continue;
        uint32_t first = loc >> 8, count = loc & 0xff;
        if (bitmap_cover(r, first + count - 1) < 0) return -1;
        mark(r, first, count, true);
        if (first + count > r->nsectors) r->nsectors = first + count;
    }
    return 0;
}

/* First fit of `count` free sectors, marked used; 0 when the file is full. */
static uint32_t alloc_sectors(region *r, uint32_t count)
{
    uint32_t run = 0;
    for (uint32_t s = 2; s < r->nsectors; s++) {
        if (sector_used(r, s)) {
            run = 0;
            continue;
        }
        if (++run == count) {
            uint32_t first = s + 1 - count;
            mark(r, first, count, true);
            return first;
        }
    }
    /* Append (reusing a free tail run). */
    uint32_t first = r->nsectors - run;
    if ((uint64_t)first + count > REGION_MAX_SECTORS) return 0;
    if (bitmap_cover(r, first + count - 1) < 0) return 0;
    mark(r, first, count, true);
    if (first + count > r->nsectors) r->nsectors = first + count;
    return first;
}

uint32_t region_used_sectors(region *r)
{
    pthread_mutex_lock(&r->lock);
    uint32_t n = 0;
    for (uint32_t s = 0; s < r->used_cap; s++) n += sector_used(r, s);
    pthread_mutex_unlock(&r->lock);
    return n;
}

/* ------------------------------------------------------------ open / close */

static int write_empty_header(region *r)
{
    uint8_t *zero = calloc(1, REGION_HEADER);
    if (!zero) return -ENOMEM;
    int rc = fio_pwrite_full(r->fd, zero, REGION_HEADER, 0);
    free(zero);
    if (rc == 0) rc = fio_fsync(r->fd);
    if (rc == 0) {
        char dir[512];
        fio_dirname(r->path, dir, sizeof dir);
        rc = fio_fsync_dir(dir);
    }
    return rc;
}

int region_open(region **out, const char *path, int32_t rx, int32_t rz, bool create)
{
    *out = NULL;
    region *r = calloc(1, sizeof *r);
    if (!r) return -ENOMEM;
    r->fd = -1;
    r->rx = rx;
    r->rz = rz;
    snprintf(r->path, sizeof r->path, "%s", path);
    pthread_mutex_init(&r->lock, NULL);
    pthread_mutex_init(&r->save_lock, NULL);
    uint8_t *hdr = NULL;
    int rc;
    int flags = O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0);
    r->fd = fio->open(path, flags, 0644);
    if (r->fd < 0 && (errno == EROFS || errno == EACCES)) {
        r->fd = fio->open(path, O_RDONLY | O_CLOEXEC, 0);
        r->read_only = r->fd >= 0;
    }
    if (r->fd < 0) {
        rc = errno ? -errno : -EIO;
        goto fail;
    }
    struct stat st;
    if (fio->fstat(r->fd, &st) < 0) {
        rc = errno ? -errno : -EIO;
        goto fail;
    }
    uint64_t size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    hdr = calloc(1, REGION_HEADER);
    if (!hdr) {
        rc = -ENOMEM;
        goto fail;
    }
    if (size == 0 && !r->read_only) {
        rc = write_empty_header(r);
        if (rc < 0) goto fail;
    } else if (size > 0) {
        /* A header cut short (a crash while the file was created) reads as
         * zeros past its end: those chunks are absent. */
        size_t want = size < REGION_HEADER ? (size_t)size : REGION_HEADER;
        rc = fio_pread_full(r->fd, hdr, want, 0);
        if (rc < 0) goto fail;
    }
    uint64_t file_sectors = (size + REGION_SECTOR - 1) / REGION_SECTOR;
    r->nsectors = file_sectors < 2                    ? 2
                  : file_sectors > REGION_MAX_SECTORS ? REGION_MAX_SECTORS
                                                      : (uint32_t)file_sectors;
    int dropped = 0;
    for (int i = 0; i < 1024; i++) {
        uint32_t loc = be32(hdr + i * 4);
        r->timestamps[i] = be32(hdr + REGION_SECTOR + i * 4);
        uint32_t first = loc >> 8, count = loc & 0xff;
        if (loc && (first < 2 || count == 0 || (uint64_t)first + count > file_sectors)) {
            dropped++;
            loc = 0;
        }
        r->locations[i] = loc;
    }
    if (dropped)
        log_warn("%s: %d chunk locations point into the header, hold no sectors or lie past the "
                 "end of the file; those chunks cannot be read and are treated as absent",
                 path, dropped);
    /* Invariant 4: the next header write repairs the file; a copy comes first. */
    r->damaged = !r->read_only && (dropped > 0 || (size > 0 && size < REGION_HEADER));
    if (mark_live(r) < 0) {
        rc = -ENOMEM;
        goto fail;
    }
    free(hdr);
    *out = r;
    return 0;
fail:
    free(hdr);
    free(r->used);
    if (r->fd >= 0) fio->close(r->fd);
    pthread_mutex_destroy(&r->lock);
    pthread_mutex_destroy(&r->save_lock);
    free(r);
    return rc;
}

void region_close(region *r)
{
    if (!r) return;
    if (r->fd >= 0) fio->close(r->fd);
    pthread_mutex_destroy(&r->lock);
    pthread_mutex_destroy(&r->save_lock);
    free(r->used);
    free(r);
}

/* ------------------------------------------------------------------- read */

void region_chunk_free(region_chunk *c)
{
    free(c->data);
    free(c->raw);
    c->data = c->raw = NULL;
    c->len = c->raw_len = 0;
}

static int corrupt(region_chunk *out, uint8_t *raw, size_t raw_len, const char *why)
{
    out->raw = raw;
    out->raw_len = raw_len;
    snprintf(out->why, sizeof out->why, "%s", why);
    return REGION_E_CORRUPT;
}

/* Reads the external c.<x>.<z>.mcc file of a chunk whose payload is stored outside. */
static int read_external(region *r, int lx, int lz, region_chunk *out)
{
    char dir[512], path[640];
    fio_dirname(r->path, dir, sizeof dir);
    snprintf(path, sizeof path, "%s/c.%d.%d.mcc", dir, r->rx * 32 + lx, r->rz * 32 + lz);
    uint8_t *p;
    size_t n;
    int rc = fio_read_file(path, REGION_MAX_EXTERNAL, &p, &n);
    if (rc == -ENOENT || rc == -EFBIG) {
        char why[160];
        snprintf(why, sizeof why, "external chunk file c.%d.%d.mcc %s", r->rx * 32 + lx,
                 r->rz * 32 + lz, rc == -ENOENT ? "is missing" : "is larger than 16 MiB");
        return corrupt(out, NULL, 0, why);
    }
    if (rc < 0) return rc;
    out->data = p;
    out->len = n;
    return 1;
}

int region_read(region *r, int lx, int lz, region_chunk *out)
{
    memset(out, 0, sizeof *out);
    int idx = (lx & 31) + (lz & 31) * 32;
    pthread_mutex_lock(&r->lock);
    uint32_t loc = r->locations[idx];
    out->timestamp = r->timestamps[idx];
    if (!loc) {
        pthread_mutex_unlock(&r->lock);
        return 0;
    }
    uint32_t first = loc >> 8, count = loc & 0xff;
    size_t span = (size_t)count * REGION_SECTOR;
    uint8_t *raw = malloc(span);
    if (!raw) {
        pthread_mutex_unlock(&r->lock);
        return -ENOMEM;
    }
    /* Up to the end of the file: a last sector may lack its padding. */
    size_t got = 0;
    int rc = 0;
    while (got < span) {
        ssize_t n =
            fio->pread(r->fd, raw + got, span - got, (off_t)first * REGION_SECTOR + (off_t)got);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            rc = errno ? -errno : -EIO;
            break;
        }
        if (n == 0) break;
        got += (size_t)n;
    }
    pthread_mutex_unlock(&r->lock);
    if (rc < 0) {
        free(raw);
        return rc;
    }
    char why[160];
    if (got < 5) return corrupt(out, raw, got, "chunk sectors lie past the end of the file");
    uint32_t len = be32(raw);
    if (len == 0 || (uint64_t)len + 4 > span) {
        snprintf(why, sizeof why, "payload length %u does not fit its %u sectors", len, count);
        return corrupt(out, raw, got, why);
    }
    if ((uint64_t)len + 4 > got)
        return corrupt(out, raw, got, "payload cut short by the end of the file");
    uint8_t type = raw[4];
    uint8_t base = type & 0x7f;
    if (base != REGION_GZIP && base != REGION_ZLIB && base != REGION_NONE) {
        snprintf(why, sizeof why, "unknown compression type %u", type);
        return corrupt(out, raw, got, why);
    }
    out->type = base;
    if (type & REGION_EXTERNAL) {
        int er = read_external(r, lx, lz, out);
        if (er == REGION_E_CORRUPT) {
            out->raw = raw;
            out->raw_len = got;
        } else {
            free(raw);
        }
        return er;
    }
    /* Move the payload down in place: no second allocation. */
    out->len = len - 1;
    memmove(raw, raw + 5, out->len);
    out->data = raw;
    return 1;
}

/* ------------------------------------------------------------------ write */

static void header_bytes(const region *r, uint8_t *hdr)
{
    for (int i = 0; i < 1024; i++) {
        put_be32(hdr + i * 4, r->locations[i]);
        put_be32(hdr + REGION_SECTOR + i * 4, r->timestamps[i]);
    }
}

/*
 * Invariant 4: keeps a copy of the damaged file before its header is
 * rewritten (caller holds save_lock: no write to the file meanwhile). 0, or
 * -errno when no copy could be made.
 */
static int keep_damaged_copy(region *r)
{
    char aside[600];
    long long t = (long long)time(NULL);
    struct stat st;
    if (fio->fstat(r->fd, &st) < 0) return errno ? -errno : -EIO;
    bool whole = st.st_size >= 0 && (uint64_t)st.st_size <= REGION_BACKUP_MAX;
    size_t n = whole ? (size_t)st.st_size : REGION_HEADER;
    uint8_t *p = malloc(n ? n : 1);
    if (!p) return -ENOMEM;
    int rc = n ? fio_pread_full(r->fd, p, n, 0) : 0;
    if (rc == 0) {
        snprintf(aside, sizeof aside, whole ? "%s.corrupt-%lld" : "%s.corrupt-header-%lld", r->path,
                 t);
        rc = fio_write_atomic(aside, p, n);
    }
    free(p);
    if (rc < 0) {
        log_error("%s: the header is damaged, but no copy of the %s can be kept (%s); not "
                  "repairing it yet, retrying at the next save",
                  r->path, whole ? "file" : "header", strerror(-rc));
        return rc;
    }
    if (whole)
        log_warn("%s: the header is damaged; a copy of the file as it was is in %s; rewriting the "
                 "header without the broken entries",
                 r->path, aside);
    else
        log_warn("%s: the header is damaged; a copy of it (the first 8 KiB of the file) is in %s; "
                 "rewriting the header without the broken entries",
                 r->path, aside);
    return 0;
}

int region_write_batch(region *r, region_write *w, size_t n, uint32_t now)
{
    uint32_t *newloc = calloc(n ? n : 1, sizeof *newloc);
    uint32_t *oldloc = calloc(n ? n : 1, sizeof *oldloc);
    uint8_t *hdr = malloc(REGION_HEADER);
    uint8_t *sec = NULL;
    int rc = 0;
    if (!newloc || !oldloc || !hdr) {
        free(newloc);
        free(oldloc);
        free(hdr);
        for (size_t i = 0; i < n; i++) w[i].result = -ENOMEM;
        return -ENOMEM;
    }
    if (r->read_only) {
        rc = -EROFS;
        for (size_t i = 0; i < n; i++) w[i].result = rc;
        goto out_nolock;
    }
    pthread_mutex_lock(&r->save_lock);
    if (r->damaged) {
        rc = keep_damaged_copy(r);
        if (rc < 0) {
            for (size_t i = 0; i < n; i++) w[i].result = rc;
            goto out;
        }
        r->damaged = false;
    }

    /* 1. Sectors for every payload, none of them live. */
    size_t ok = 0;
    pthread_mutex_lock(&r->lock);
    for (size_t i = 0; i < n; i++) {
        w[i].result = 0;
        if (w[i].len > REGION_MAX_PAYLOAD) {
            w[i].result = -EFBIG;
            continue;
        }
        uint32_t count = (uint32_t)((w[i].len + 5 + REGION_SECTOR - 1) / REGION_SECTOR);
        uint32_t first = alloc_sectors(r, count);
        if (!first) {
            w[i].result = -ENOSPC; /* the region file is at its 2^24-sector limit */
            continue;
        }
        newloc[i] = first << 8 | count;
        ok++;
    }
    pthread_mutex_unlock(&r->lock);

    /* 2. Payloads, then one fsync. */
    size_t sec_cap = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (w[i].result) continue;
        size_t span = (size_t)(newloc[i] & 0xff) * REGION_SECTOR;
        if (span > sec_cap) {
            free(sec);
            sec = malloc(span);
            sec_cap = sec ? span : 0;
            if (!sec) {
                rc = -ENOMEM;
                break;
            }
        }
        put_be32(sec, (uint32_t)w[i].len + 1);
        sec[4] = REGION_ZLIB;
        memcpy(sec + 5, w[i].data, w[i].len);
        memset(sec + 5 + w[i].len, 0, span - 5 - w[i].len);
        rc = fio_pwrite_full(r->fd, sec, span, (off_t)(newloc[i] >> 8) * REGION_SECTOR);
    }
    if (rc == 0 && ok) rc = fio_fsync(r->fd);
    if (rc < 0) {
        /* Nothing points at the new sectors: give them back. */
        pthread_mutex_lock(&r->lock);
        for (size_t i = 0; i < n; i++) {
            if (w[i].result) continue;
            mark(r, newloc[i] >> 8, newloc[i] & 0xff, false);
            w[i].result = rc;
        }
        mark_live(r);
        pthread_mutex_unlock(&r->lock);
        goto out;
    }
    if (!ok && !r->header_dirty) goto out;

    /* 3. The header points at the new payloads; one fsync. */
    pthread_mutex_lock(&r->lock);
    for (size_t i = 0; i < n; i++) {
        if (w[i].result) continue;
        int idx = (w[i].lx & 31) + (w[i].lz & 31) * 32;
        oldloc[i] = r->locations[idx];
        r->locations[idx] = newloc[i];
        r->timestamps[idx] = now;
    }
    header_bytes(r, hdr);
    pthread_mutex_unlock(&r->lock);
    rc = fio_pwrite_full(r->fd, hdr, REGION_HEADER, 0);
    if (rc == 0) rc = fio_fsync(r->fd);
    pthread_mutex_lock(&r->lock);
    if (rc < 0) {
        /* The disk may hold old, new or mixed entries: all stay valid, since
         * neither the old nor the new sectors are freed. */
        r->header_dirty = true;
        for (size_t i = 0; i < n; i++)
            if (!w[i].result) w[i].result = rc;
    } else {
        /* 4. The replaced payloads are unreachable now. */
        r->header_dirty = false;
        for (size_t i = 0; i < n; i++)
            if (!w[i].result && oldloc[i]) mark(r, oldloc[i] >> 8, oldloc[i] & 0xff, false);
        mark_live(r); /* overlapping foreign entries stay reserved */
    }
    pthread_mutex_unlock(&r->lock);
out:
    pthread_mutex_unlock(&r->save_lock);
out_nolock:
    free(sec);
    free(newloc);
    free(oldloc);
    free(hdr);
    if (rc == 0)
        for (size_t i = 0; i < n; i++)
            if (w[i].result) return w[i].result;
    return rc;
}
