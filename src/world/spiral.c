/* spiral.c — see spiral.h. */
#include "world/spiral.h"

#include <stdlib.h>

static struct chunk_offset table[SPIRAL_SIDE * SPIRAL_SIDE];
static int ends[SPIRAL_MAX + 1];
static int ready;

static int cmp_offset(const void *a, const void *b)
{
    const struct chunk_offset *p = a, *q = b;
    int da = p->dx * p->dx + p->dz * p->dz, db = q->dx * q->dx + q->dz * q->dz;
    if (da != db) return da - db;
    if (p->dx != q->dx) return p->dx - q->dx;
    return p->dz - q->dz;
}

void spiral_init(void)
{
    if (ready) return;
    int n = 0;
    for (int dx = -SPIRAL_MAX; dx <= SPIRAL_MAX; dx++)
        for (int dz = -SPIRAL_MAX; dz <= SPIRAL_MAX; dz++)
            table[n++] = (struct chunk_offset){(int8_t)dx, (int8_t)dz};
    qsort(table, (size_t)n, sizeof table[0], cmp_offset);
    for (int r = 0; r <= SPIRAL_MAX; r++) {
        int end = 0;
        for (int i = 0; i < n; i++)
            if (abs(table[i].dx) <= r && abs(table[i].dz) <= r) end = i + 1;
        ends[r] = end;
    }
    ready = 1;
}

const struct chunk_offset *spiral_offsets(void)
{
    spiral_init();
    return table;
}

int spiral_end(int radius)
{
    spiral_init();
    if (radius < 0) return 0;
    if (radius > SPIRAL_MAX) radius = SPIRAL_MAX;
    return ends[radius];
}
