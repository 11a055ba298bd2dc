#!/bin/bash
# run.sh [SECONDS] — builds each libFuzzer target (clang, ASan+UBSan) and runs
# it over its committed seed corpus (tests/fuzz/corpus/<target>/) and then
# for SECONDS more (default 5) of new inputs. New inputs go to a temporary
# folder, never into the committed corpus. Fails on any crash.
set -eu
cd "$(dirname "$0")/../.."
secs=${1:-5}
out=build-fuzz
mkdir -p "$out"
LIB_SRC="src/core/buf.c src/core/log.c src/core/config.c src/core/utf8.c src/proto/wire.c src/proto/nbt.c src/proto/frame.c src/core/fileio.c src/data/block_table.c src/data/entity_table.c src/data/recipes.c src/data/enchant_table.c src/game/enchant.c src/world/anvil.c src/world/block_entity.c src/world/block_ticks.c src/world/chunk.c src/world/heightmaps.c src/world/light.c src/world/region.c src/world/level.c src/game/lists_file.c src/admin/http_parse.c src/admin/rcon_packet.c src/admin/query_packet.c"
FLAGS="-std=c17 -D_GNU_SOURCE -Isrc -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
# fuzz_play links every server object but src/main.c
# (tests/fuzz/fuzz_play.c sets the server up itself); the objects are rebuilt only when a source, a
# header or the flags change (a digest in $out/play-obj/stamp).
PLAY_SRC=$(ls src/core/*.c src/proto/*.c src/data/*.c src/world/*.c src/game/*.c src/net/*.c src/admin/*.c)
PLAY_CFLAGS="-std=c17 -D_GNU_SOURCE -Isrc $(pkg-config --cflags lua5.4 2>/dev/null) -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
build_play() {
    local objdir="$out/play-obj" stamp
    stamp=$( (cat $PLAY_SRC src/*/*.h tests/fuzz/fuzz_play.c; echo "$PLAY_CFLAGS") | sha1sum | cut -c1-40)
    if [ -x "$out/fuzz_play" ] && [ "$(cat "$objdir/stamp" 2>/dev/null)" = "$stamp" ]; then return 0; fi
    rm -rf "$objdir"
    mkdir -p "$objdir"
    printf '%s\n' $PLAY_SRC | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} \
        sh -c 'clang '"$PLAY_CFLAGS"' -c "$1" -o "'"$objdir"'/$(echo "$1" | tr / _).o"' _ {}
    clang $FLAGS -o "$out/fuzz_play" tests/fuzz/fuzz_play.c "$objdir"/*.o \
        $(pkg-config --libs lua5.4 2>/dev/null || echo -llua5.4) \
        -ledit -lsystemd -lpng -ldeflate -lcurl -lwslay -lssl -lcrypto -ljansson -lpthread -lm
    echo "$stamp" >"$objdir/stamp"
}
# The library sources are compiled once (in parallel) and linked into every
# target but fuzz_play, which has its own object set.
LIB_CFLAGS="-std=c17 -D_GNU_SOURCE -Isrc -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
build_lib() {
    local objdir="$out/lib-obj" stamp
    stamp=$( (cat $LIB_SRC src/proto/crypto.c src/*/*.h; echo "$LIB_CFLAGS") | sha1sum | cut -c1-40)
    if [ "$(cat "$objdir/stamp" 2>/dev/null)" = "$stamp" ]; then return 0; fi
    rm -rf "$objdir"
    mkdir -p "$objdir"
    printf '%s\n' $LIB_SRC src/proto/crypto.c | xargs -P "$(nproc 2>/dev/null || echo 2)" -I{} \
        sh -c 'clang '"$LIB_CFLAGS"' -c "$1" -o "'"$objdir"'/$(echo "$1" | tr / _).o"' _ {}
    echo "$stamp" >"$objdir/stamp"
}
build_lib
rc=0
for target in frame nbt config proxy anvil http rcon query lists mgmt mob play; do
    if [ "$target" = play ]; then
        build_play
    else
        clang $FLAGS -o "$out/fuzz_$target" "tests/fuzz/fuzz_$target.c" "$out"/lib-obj/*.o \
            -ldeflate -ljansson -lcrypto -lm
    fi
    work=$(mktemp -d)
    echo "fuzz_$target: corpus $(ls tests/fuzz/corpus/$target | wc -l) files, then ${secs} s"
    # absolute paths: fuzz_play works in a temporary directory of its own
    if ! "$out/fuzz_$target" -max_total_time="$secs" -print_final_stats=0 -artifact_prefix="$PWD/$out/" \
        "$work" "$PWD/tests/fuzz/corpus/$target" >"$out/fuzz_$target.log" 2>&1; then
        echo "fuzz_$target FAILED:"
        tail -30 "$out/fuzz_$target.log"
        rc=1
    else
        grep -E '^#[0-9]+.*DONE' "$out/fuzz_$target.log" | tail -1 || true
    fi
    rm -rf "$work"
done
exit $rc
