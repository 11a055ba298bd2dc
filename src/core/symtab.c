/*
 * symtab.c — see symtab.h.
 *
 * The executable's table: its ELF section headers (pread), the SHT_SYMTAB
 * section (or SHT_DYNSYM when stripped) and its string table; STT_FUNC
 * symbols with an address, sorted by address, relocated by the load bias
 * dl_iterate_phdr reports for the main program (PIE). Objects: each loaded
 * object's PF_X segments, from dl_iterate_phdr.
 */
#include "core/symtab.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SYMTAB_MAX_FILE_SECTION                                                                    \
    (64u << 20) /* a symbol or string table larger than this is refused */

struct sym {
    uintptr_t start, end;
    const char *name;
};

static struct {
    pthread_once_t once;
    int rc;
    struct sym *syms;
    size_t nsyms;
    char *strings;
    uintptr_t bias;
    struct symtab_object objects[SYMTAB_MAX_OBJECTS];
    char paths[SYMTAB_MAX_OBJECTS][256];
    size_t nobjects;
} st = {.once = PTHREAD_ONCE_INIT, .rc = -1};

static int on_object(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    if (st.nobjects == 0) st.bias = info->dlpi_addr; /* the main program comes first */
    if (st.nobjects >= SYMTAB_MAX_OBJECTS) return 0;
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    uint64_t off = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr;
        if (a < lo) {
            lo = a;
            off = ph->p_offset;
        }
        if (a + ph->p_memsz > hi) hi = a + ph->p_memsz;
    }
    if (lo >= hi) return 0;
    size_t k = st.nobjects++;
    const char *name = info->dlpi_name && info->dlpi_name[0] ? info->dlpi_name : NULL;
    if (!name && k == 0) {
        ssize_t n = readlink("/proc/self/exe", st.paths[k], sizeof st.paths[k] - 1);
        st.paths[k][n > 0 ? n : 0] = 0;
        if (n <= 0) snprintf(st.paths[k], sizeof st.paths[k], "mcserv");
    } else {
        snprintf(st.paths[k], sizeof st.paths[k], "%s", name ? name : "[vdso]");
    }
    st.objects[k] = (struct symtab_object){lo, hi, off, st.paths[k]};
    return 0;
}

static int cmp_sym(const void *a, const void *b)
{
    const struct sym *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static void *read_at(int fd, uint64_t off, uint64_t len)
{
    if (len == 0 || len > SYMTAB_MAX_FILE_SECTION) return NULL;
    char *p = malloc(len + 1);
    if (!p) return NULL;
    size_t got = 0;
    while (got < len) {
        ssize_t n = pread(fd, p + got, len - got, (off_t)(off + got));
        if (n <= 0) {
            free(p);
            return NULL;
        }
        got += (size_t)n;
    }
    p[len] = 0;
    return p;
}

/* The executable's function symbols into st.syms; 0 or -1. */
static int load_exe(void)
{
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    int rc = -1;
    ElfW(Shdr) *sh = NULL;
    ElfW(Sym) *syms = NULL;
    ElfW(Ehdr) eh;
    if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
        eh.e_shentsize != sizeof(ElfW(Shdr)) || eh.e_shnum == 0 || eh.e_shnum > 4096)
        goto out;
    sh = read_at(fd, eh.e_shoff, (uint64_t)eh.e_shnum * sizeof *sh);
    if (!sh) goto out;
    int best = -1;
    for (int i = 0; i < eh.e_shnum; i++) {
        if (sh[i].sh_type == SHT_SYMTAB) best = i;
        if (sh[i].sh_type == SHT_DYNSYM && best < 0) best = i;
    }
    if (best < 0 || sh[best].sh_link >= eh.e_shnum || sh[best].sh_entsize != sizeof(ElfW(Sym)))
        goto out;
    const ElfW(Shdr) *ss = &sh[best], *ts = &sh[ss->sh_link];
    syms = read_at(fd, ss->sh_offset, ss->sh_size);
    st.strings = read_at(fd, ts->sh_offset, ts->sh_size);
    if (!syms || !st.strings) goto out;
    size_t n = ss->sh_size / sizeof *syms, k = 0;
    st.syms = calloc(n ? n : 1, sizeof *st.syms);
    if (!st.syms) goto out;
    for (size_t i = 0; i < n; i++) {
        const ElfW(Sym) *s = &syms[i];
        if (ELF64_ST_TYPE(s->st_info) != STT_FUNC || !s->st_value || s->st_name >= ts->sh_size)
            continue;
        st.syms[k++] = (struct sym){st.bias + s->st_value, st.bias + s->st_value + s->st_size,
                                    st.strings + s->st_name};
    }
    qsort(st.syms, k, sizeof *st.syms, cmp_sym);
    /* A symbol of size 0 reaches to the next one. */
    for (size_t i = 0; i < k; i++)
        if (st.syms[i].end <= st.syms[i].start)
            st.syms[i].end = i + 1 < k ? st.syms[i + 1].start : st.syms[i].start + 1;
    st.nsyms = k;
    rc = 0;
out:
    free(sh);
    free(syms);
    close(fd);
    return rc;
}

static void load_once(void)
{
    dl_iterate_phdr(on_object, NULL);
    st.rc = load_exe();
}

int symtab_load(void)
{
    pthread_once(&st.once, load_once);
    return st.rc;
}

const struct symtab_object *symtab_object_of(uintptr_t pc)
{
    for (size_t i = 0; i < st.nobjects; i++)
        if (pc >= st.objects[i].start && pc < st.objects[i].limit) return &st.objects[i];
    return NULL;
}

size_t symtab_objects(const struct symtab_object **out)
{
    symtab_load();
    *out = st.objects;
    return st.nobjects;
}

const char *symtab_name(uintptr_t pc, char *buf, size_t cap)
{
    symtab_load();
    size_t lo = 0, hi = st.nsyms;
    while (lo < hi) { /* the last symbol starting at or before pc */
        size_t mid = (lo + hi) / 2;
        if (st.syms[mid].start <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && pc < st.syms[lo - 1].end) return st.syms[lo - 1].name;
    Dl_info di;
    if (dladdr((void *)pc, &di) && di.dli_sname && di.dli_sname[0]) {
        snprintf(buf, cap, "%s", di.dli_sname);
        return buf;
    }
    const struct symtab_object *o = symtab_object_of(pc);
    if (o) {
        const char *base = strrchr(o->path, '/');
        snprintf(buf, cap, "%s+0x%lx", base ? base + 1 : o->path,
                 (unsigned long)(pc - o->start + o->file_offset));
    } else {
        snprintf(buf, cap, "0x%lx", (unsigned long)pc);
    }
    return buf;
}
