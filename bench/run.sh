#!/bin/sh
# run.sh — entry point of the benchmark harness (`make bench` calls
# `bench/run.sh --default`). All the work is in bench/run.js (Node, no
# dependencies beyond the repository's node_modules for flying-squid);
# see `bench/run.sh --help` and docs/mcbench.md.
set -eu
cd "$(dirname "$0")/.."
exec node bench/run.js "$@"
