/* noise.c — see noise.h. Classic improved Perlin noise over a seeded permutation. */
#include "world/noise.h"

#include <math.h>

void noise_init(noise *n, uint64_t seed)
{
    uint64_t s = splitmix64(seed);
    for (int i = 0; i < 256; i++) n->perm[i] = (uint8_t)i;
    for (int i = 255; i > 0; i--) {
        s = splitmix64(s);
        int j = (int)(s % (uint64_t)(i + 1));
        uint8_t t = n->perm[i];
        n->perm[i] = n->perm[j];
        n->perm[j] = t;
    }
    for (int i = 0; i < 256; i++) n->perm[256 + i] = n->perm[i];
}

static inline double fade(double t)
{
    return t * t * t * (t * (t * 6 - 15) + 10);
}

static inline double lerp(double t, double a, double b)
{
    return a + t * (b - a);
}

static inline double grad3(int h, double x, double y, double z)
{
    h &= 15;
    double u = h < 8 ? x : y;
    double v = h < 4 ? y : (h == 12 || h == 14) ? x : z;
    return ((h & 1) ? -u : u) + ((h & 2) ? -v : v);
}

static inline double grad2(int h, double x, double z)
{
    switch (h & 7) {
    case 0: return x + z;
    case 1: return x - z;
    case 2: return -x + z;
    case 3: return -x - z;
    case 4: return x;
    case 5: return -x;
    case 6: return z;
    default: return -z;
    }
}

double noise2(const noise *n, double x, double z)
{
    double fx = floor(x), fz = floor(z);
    int X = (int)fx & 255, Z = (int)fz & 255;
    x -= fx;
    z -= fz;
    double u = fade(x), w = fade(z);
    const uint8_t *p = n->perm;
    int a = p[X] + Z, b = p[X + 1] + Z;
    double r = lerp(w, lerp(u, grad2(p[a], x, z), grad2(p[b], x - 1, z)),
                    lerp(u, grad2(p[a + 1], x, z - 1), grad2(p[b + 1], x - 1, z - 1)));
    return r * 0.7;
}

double noise3(const noise *n, double x, double y, double z)
{
    double fx = floor(x), fy = floor(y), fz = floor(z);
    int X = (int)fx & 255, Y = (int)fy & 255, Z = (int)fz & 255;
    x -= fx;
    y -= fy;
    z -= fz;
    double u = fade(x), v = fade(y), w = fade(z);
    const uint8_t *p = n->perm;
    int A = p[X] + Y, AA = p[A] + Z, AB = p[A + 1] + Z;
    int B = p[X + 1] + Y, BA = p[B] + Z, BB = p[B + 1] + Z;
    return lerp(
        w,
        lerp(v, lerp(u, grad3(p[AA], x, y, z), grad3(p[BA], x - 1, y, z)),
             lerp(u, grad3(p[AB], x, y - 1, z), grad3(p[BB], x - 1, y - 1, z))),
        lerp(v, lerp(u, grad3(p[AA + 1], x, y, z - 1), grad3(p[BA + 1], x - 1, y, z - 1)),
             lerp(u, grad3(p[AB + 1], x, y - 1, z - 1), grad3(p[BB + 1], x - 1, y - 1, z - 1))));
}

double fbm2(const noise *n, double x, double z, int octaves)
{
    double sum = 0, amp = 1, total = 0;
    for (int i = 0; i < octaves; i++) {
        sum += amp * noise2(n, x, z);
        total += amp;
        amp *= 0.5;
        x = x * 2 + 17.31;
        z = z * 2 - 5.77;
    }
    return sum / total;
}

double fbm3(const noise *n, double x, double y, double z, int octaves)
{
    double sum = 0, amp = 1, total = 0;
    for (int i = 0; i < octaves; i++) {
        sum += amp * noise3(n, x, y, z);
        total += amp;
        amp *= 0.5;
        x = x * 2 + 17.31;
        y = y * 2 + 3.1;
        z = z * 2 - 5.77;
    }
    return sum / total;
}
