/*
 * symtab.h — code addresses to function names, for the profiler
 * (core/profiler.h): the executable's own ELF symbol table (every
 * function, static ones included, read once from /proc/self/exe with
 * pread: a few hundred KB of the file), and for shared libraries their
 * dynamic symbols through dladdr. Also the loaded objects' executable
 * ranges, which profile.proto lists as mappings.
 *
 * Invariants:
 *  1. symtab_load runs once per process (pthread_once); afterwards the
 *     table is read-only, so any thread may look names up.
 *  2. Every lookup answers: a symbol, else "lib.so+0xoffset", else "0x..."
 *     (never NULL).
 */
#ifndef MC_SYMTAB_H
#define MC_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

#define SYMTAB_MAX_OBJECTS 64

struct symtab_object {
    uintptr_t start, limit; /* executable segments' range in memory */
    uint64_t file_offset;   /* file offset of start */
    const char *path;
};

/* Loads the table (once; later calls return the first result): 0, or -1
 * when the executable's symbols cannot be read (lookups then fall back to
 * dladdr). May read the disk: call it off the game thread, or at startup. */
int symtab_load(void);
/* The name of the function containing pc (pass a return address minus 1
 * for a caller frame); buf holds the fallback text. */
const char *symtab_name(uintptr_t pc, char *buf, size_t cap);
/* The object containing pc, or NULL; objects are numbered by symtab_objects. */
const struct symtab_object *symtab_object_of(uintptr_t pc);
size_t symtab_objects(const struct symtab_object **out);

#endif
