#!/bin/bash
# run.sh [SECONDS] — builds each libFuzzer target (clang, ASan+UBSan) and runs
# it over its committed seed corpus (tests/fuzz/corpus/<target>/) and then
# for SECONDS more (default 10) of new inputs. New inputs go to a temporary
# folder, never into the committed corpus. Fails on any crash.
set -eu
cd "$(dirname "$0")/../.."
secs=${1:-10}
out=build-fuzz
mkdir -p "$out"
LIB_SRC="src/core/buf.c src/core/log.c src/core/config.c src/proto/wire.c src/proto/nbt.c src/proto/frame.c src/core/fileio.c src/data/block_table.c src/world/anvil.c src/world/chunk.c src/world/light.c src/world/region.c src/world/level.c"
FLAGS="-std=c17 -D_GNU_SOURCE -Isrc -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
rc=0
for target in frame nbt config proxy anvil http rcon query lists; do
    clang $FLAGS -o "$out/fuzz_$target" "tests/fuzz/fuzz_$target.c" $LIB_SRC src/proto/crypto.c -ldeflate -ljansson -lcrypto -lm
    work=$(mktemp -d)
    echo "fuzz_$target: corpus $(ls tests/fuzz/corpus/$target | wc -l) files, then ${secs} s"
    if ! "$out/fuzz_$target" -max_total_time="$secs" -print_final_stats=0 -artifact_prefix="$out/" \
        "$work" "tests/fuzz/corpus/$target" >"$out/fuzz_$target.log" 2>&1; then
        echo "fuzz_$target FAILED:"
        tail -30 "$out/fuzz_$target.log"
        rc=1
    else
        grep -E '^#[0-9]+.*DONE' "$out/fuzz_$target.log" | tail -1 || true
    fi
    rm -rf "$work"
done
exit $rc
