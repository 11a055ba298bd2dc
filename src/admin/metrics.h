/*
 * metrics.h — /metrics: the server's numbers in the Prometheus text format
 * (version 0.0.4), names as operators' dashboards expect (ops-conventions
 * §3.1: minecraft_* like UnifiedMetrics, process_* like every client
 * library). docs/operations.md lists every series.
 *
 * Invariants:
 *  1. The text is built at most once per tick and served from that cache
 *     (a scrape storm costs one build per 50 ms); counters may lag a tick.
 *  2. Label values come from a fixed set (states, kick reasons, save
 *     lists) or are escaped (the world name): operators' text never
 *     becomes a new series.
 *  3. Bounded: the text has a cap (METRICS_MAX); the process_* numbers come
 *     from /proc/self, never from the disk.
 */
#ifndef MC_METRICS_H
#define MC_METRICS_H

#include <stddef.h>

#include "core/buf.h"

#define METRICS_MAX (256u << 10)

/* The current text (valid until the next call); *len its length. */
const char *metrics_text(size_t *len);
void metrics_free(void);
/* Builds the text into out (tests call it directly). */
void metrics_build(buf_t *out);
/* Appends a Prometheus label value (between the quotes): \ " and newline escaped. */
void metrics_label_value(buf_t *out, const char *s);

#endif
