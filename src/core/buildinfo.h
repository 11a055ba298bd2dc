/*
 * buildinfo.h — what this build of mcserv is: the commit it was built from
 * (`git describe --always --dirty`, "unknown" outside a git checkout),
 * written by the Makefile into BUILD/buildinfo.c. Linked into mcserv only
 * (mcserv --version, /metrics' mcserv_build_info), never into libmc.
 */
#ifndef MC_BUILDINFO_H
#define MC_BUILDINFO_H

extern const char mcserv_commit[];

#endif
