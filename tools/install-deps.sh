#!/bin/sh
# install-deps.sh [build|all] — installs what mcserv needs, only when
# missing, from Debian's packages (apt-get, non-interactive; as root or
# through sudo):
#   build   what `make` and `make run` need: the compiler and the libraries
#           the server and mcbench link (no test tools)
#   all     (the default, `make test`) build, plus the test tools (clang and
#           its sanitizer runtime, clang-format, Chromium, tmux, Go for
#           `go tool pprof`, Node.js) and the pinned npm packages of the
#           end-to-end tests (npm ci from the committed package-lock.json)
# Safe to run again: it does nothing when all is present.
set -eu
cd "$(dirname "$0")/.."

BUILD_PKGS="make gcc pkg-config libdeflate-dev libpng-dev libssl-dev openssl libwslay-dev libedit-dev libsystemd-dev liblua5.4-dev libjansson-dev libcurl4-openssl-dev"
TEST_PKGS="clang libclang-rt-14-dev clang-format chromium tmux"
# golang-go: `go tool pprof`, the reference reader of the profiler's output in
# the tests (tests/e2e/profiler.test.js); only for testing, like chromium.
TEST_PKGS="$TEST_PKGS golang-go"

mode=${1:-all}
PKGS=$BUILD_PKGS
[ "$mode" = build ] || PKGS="$BUILD_PKGS $TEST_PKGS"

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
if [ "$mode" != build ]; then
    command -v node >/dev/null 2>&1 || missing="$missing nodejs"
    command -v npm >/dev/null 2>&1 || missing="$missing npm"
fi

if [ -n "$missing" ]; then
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    echo "install-deps: installing:$missing"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

[ "$mode" = build ] && exit 0

# node_modules is current when npm's own record of it matches the lockfile.
if [ ! -f node_modules/.package-lock.json ] || ! cmp -s package-lock.json node_modules/.mcserv-lock; then
    echo "install-deps: npm ci"
    npm ci --no-audit --no-fund --loglevel=error
    cp package-lock.json node_modules/.mcserv-lock
fi
