/*
 * pprof.h — a profile (core/profiler.h) as the files profiling tools read:
 *
 *   - profile.proto, gzipped (github.com/google/pprof/proto/profile.proto):
 *     sample types samples/count and cpu/nanoseconds, one location per
 *     distinct frame address with its function's name filled in, and the
 *     loaded objects as mappings marked has_functions, so `go tool pprof
 *     -top profile.pb.gz` needs neither the binary nor symbols;
 *   - folded stacks ("collapsed", flamegraph.pl and speedscope input): one
 *     line per distinct stack, root first, frames joined by ';', the
 *     thread's name as the root, then a space and the sample count.
 *
 * Both name frames with core/symtab.h (which may read the executable the
 * first time): run them on a worker thread, not the game thread.
 *
 * Wire format written (proto3: a field is a varint key (number << 3 | wire
 * type), then a varint (type 0) or a varint length and bytes (type 2)):
 *
 *   Profile  1 sample_type  2 sample  3 mapping  4 location  5 function
 *            6 string_table  9 time_nanos  10 duration_nanos
 *            11 period_type  12 period  13 comment  14 default_sample_type
 *   ValueType 1 type 2 unit (string table indices)
 *   Sample   1 location_id (packed, leaf first)  2 value (packed)  3 label
 *   Label    1 key  2 str  3 num
 *   Mapping  1 id 2 memory_start 3 memory_limit 4 file_offset 5 filename
 *            7 has_functions
 *   Location 1 id 2 mapping_id 3 address 4 line{1 function_id 2 line}
 *   Function 1 id 2 name 3 system_name 4 filename
 *
 * Invariants:
 *  1. The output is bounded by out's limit; a profile that does not fit
 *     fails (-1), it is never cut short.
 *  2. string_table[0] is "", as the format requires.
 */
#ifndef MC_PPROF_H
#define MC_PPROF_H

#include "core/buf.h"
#include "core/profiler.h"

/* Appends the gzipped profile.proto of p to out; 0, or -1 (out of memory
 * or out's limit). */
int pprof_write_proto(const profile *p, buf_t *out);
/* Appends the folded stacks of p to out (sorted, identical stacks merged);
 * 0 or -1. */
int pprof_write_collapsed(const profile *p, buf_t *out);

#endif
