#!/bin/bash
# run-all.sh — every check and test of mcserv, as `make test` runs it.
#
# Steps (each counts as passed or failed; the run goes on after a failure so
# one report shows everything):
#   build with gcc (build/) and clang (build-clang/), -Wall -Wextra -Werror
#   generated tables current (tools/gen_data.js), clang-format clean
#   unit tests, end-to-end tests (real clients from npm) against build/
#   an ASan+UBSan build (build-asan/): unit and end-to-end tests again,
#   its end-to-end pass concurrent with the gcc one (SOLO_E2E files after,
#   one build at a time)
#   the terrain against deepslate and the ore distributions (tests/worldgen),
#   after the end-to-end passes (it is CPU-bound; they are timing-sensitive)
#   fuzz targets over their committed corpora (clang libFuzzer), briefly
# The last line is "N passed, N failed"; the exit status is 0 only if none failed.
set -u
cd "$(dirname "$0")/.."
export NODE_OPTIONS="${NODE_OPTIONS:-}"

JOBS=$(nproc 2>/dev/null || echo 2)
passed=0
failed=0
failures=()

step() { # step NAME COMMAND... — runs one pass/fail step
    local name=$1
    shift
    echo "=== $name"
    local t0=$SECONDS
    if "$@"; then
        passed=$((passed + 1))
        echo "=== $name: ok ($((SECONDS - t0)) s)"
    else
        failed=$((failed + 1))
        failures+=("$name")
        echo "=== $name: FAILED ($((SECONDS - t0)) s)"
    fi
}

count_unit() { # count_unit BINARY — adds the binary's own pass/fail counts
    local bin=$1 out
    echo "=== unit tests: $bin"
    out=$("$bin" 2>&1)
    local rc=$?
    echo "$out" | grep -v '^ok - ' || true
    local line
    line=$(echo "$out" | grep -E '^unit: [0-9]+ passed, [0-9]+ failed$' | tail -1)
    if [ -z "$line" ]; then
        failed=$((failed + 1))
        failures+=("$bin (crashed: exit $rc)")
        return
    fi
    local p f
    p=$(echo "$line" | sed -E 's/^unit: ([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')
    passed=$((passed + p))
    failed=$((failed + f))
    [ "$f" = 0 ] || failures+=("$bin: $f unit tests")
    echo "=== $line"
}

# Files that load both cores on their own (a thousand clients logging in at
# once; two floods of 200 slow connections reconnecting as fast as they are
# closed, against which a real client must log in within its first
# milliseconds): they run after the two concurrent passes, one build at a
# time, so what they measure is the server and not the other pass.
SOLO_E2E="tests/e2e/flashcrowd.test.js tests/e2e/adminslow.test.js"

e2e_files() { # e2e_files shared|solo — the end-to-end files of one phase
    local f
    for f in tests/e2e/*.test.js; do
        case " $SOLO_E2E " in
        *" $f "*) [ "$1" = solo ] && echo "$f" ;;
        *) [ "$1" = shared ] && echo "$f" ;;
        esac
    done
}

e2e_start() { # e2e_start MCSERV MCBENCH LOG PHASE — node's test runner in the background
    local server=$1 bench=$2 log=$3 phase=$4
    # shellcheck disable=SC2046 # file names without spaces
    MCSERV="$PWD/$server" MCBENCH="$PWD/$bench" node --test --test-reporter=tap \
        --test-concurrency=1 $(e2e_files "$phase") >"$log" 2>&1 &
}

count_e2e() { # count_e2e PID LOG LABEL — waits for one e2e pass, adds its TAP counts
    local pid=$1 log=$2 label=$3 rc
    wait "$pid"
    rc=$?
    echo "=== end-to-end tests ($label)"
    grep -E '^(not ok|ok|# (pass|fail|skipped|duration))|^ +(not ok|ok) ' "$log" | grep -v '^ *ok .*# SKIP$' | sed 's/^/  /'
    if grep -q '^not ok' "$log"; then
        echo "--- failure details ($label)"
        sed -n '/not ok/,/\.\.\./p' "$log" | head -150
    fi
    local p f
    p=$(grep -E '^# pass [0-9]+' "$log" | tail -1 | awk '{print $3}')
    f=$(grep -E '^# fail [0-9]+' "$log" | tail -1 | awk '{print $3}')
    if [ -z "$p" ] || [ -z "$f" ]; then
        failed=$((failed + 1))
        failures+=("e2e $label (runner exit $rc, no counts)")
        tail -40 "$log"
    else
        passed=$((passed + p))
        failed=$((failed + f))
        [ "$f" = 0 ] || failures+=("e2e $label: $f tests")
    fi
    rm -f "$log"
}

step "build (gcc)" make -s -j"$JOBS" CC=gcc BUILD=build all build/unit_tests
step "build (clang)" make -s -j"$JOBS" CC=clang BUILD=build-clang all build-clang/unit_tests
step "generated tables current" make -s check-generated
step "clang-format clean" make -s format-check
step "build (asan+ubsan, clang)" make -s -j"$JOBS" CC=clang SAN=1 BUILD=build-asan all build-asan/unit_tests
if [ -x tests/fuzz/run.sh ]; then
    step "fuzz targets (corpus + short run)" tests/fuzz/run.sh
fi

if [ -x build/unit_tests ]; then count_unit build/unit_tests; fi

export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
if [ -x build-asan/unit_tests ]; then count_unit build-asan/unit_tests; fi

# The two end-to-end passes run at the same time: most of a test's time is
# waiting on a client or a timer, not CPU, so two passes on two cores take
# little longer than one. Each test picks its own free ports and directories.
gcc_log=$(mktemp)
asan_log=$(mktemp)
gcc_pid=
asan_pid=
if [ -x build/mcserv ]; then
    e2e_start build/mcserv build/mcbench "$gcc_log" shared
    gcc_pid=$!
fi
if [ -x build-asan/mcserv ]; then
    e2e_start build-asan/mcserv build-asan/mcbench "$asan_log" shared
    asan_pid=$!
fi
if [ -n "$gcc_pid" ]; then count_e2e "$gcc_pid" "$gcc_log" "gcc -O2"; fi
if [ -n "$asan_pid" ]; then count_e2e "$asan_pid" "$asan_log" "asan+ubsan"; fi
if [ -x build/mcserv ]; then
    e2e_start build/mcserv build/mcbench "$gcc_log" solo
    count_e2e $! "$gcc_log" "gcc -O2, alone"
fi
if [ -x build-asan/mcserv ]; then
    e2e_start build-asan/mcserv build-asan/mcbench "$asan_log" solo
    count_e2e $! "$asan_log" "asan+ubsan, alone"
fi
rm -f "$gcc_log" "$asan_log"

if [ -x build/worldgen ]; then
    step "terrain vs deepslate, ores (gcc -O2)" env WORLDGEN=build/worldgen node --test tests/worldgen/
fi
if [ -x build-asan/worldgen ]; then
    step "terrain vs deepslate (asan+ubsan, 200 columns)" env WORLDGEN=build-asan/worldgen \
        WORLDGEN_SAMPLES=200 node --test tests/worldgen/oracle.test.js
    step "terrain digest (asan+ubsan, radius 3)" env WORLDGEN=build-asan/worldgen \
        WORLDGEN_DIGEST_RADIUS=3 node --test tests/worldgen/digest.test.js
fi

echo
if [ ${#failures[@]} -gt 0 ]; then
    echo "failed:"
    printf '  %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
