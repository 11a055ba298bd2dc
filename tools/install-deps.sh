#!/bin/sh
# install-deps.sh [build|all] — installs what mcserv needs to build (and,
# with "all", the default, to test), only when
# missing: Debian packages (apt-get, non-interactive; as root or through
# sudo) and the pinned npm packages of the end-to-end tests (npm ci from the
# committed package-lock.json). Safe to run again: it does nothing when all
# is present.
set -eu
cd "$(dirname "$0")/.."

PKGS="make gcc clang libclang-rt-14-dev pkg-config libdeflate-dev libpng-dev libssl-dev openssl libwslay-dev liblua5.4-dev libjansson-dev libcurl4-openssl-dev clang-format chromium"
missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"

if [ -n "$missing" ]; then
    SUDO=""
    if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
    echo "install-deps: installing:$missing"
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

[ "${1:-all}" = build ] && exit 0

# node_modules is current when npm's own record of it matches the lockfile.
if [ ! -f node_modules/.package-lock.json ] || ! cmp -s package-lock.json node_modules/.mcserv-lock; then
    echo "install-deps: npm ci"
    npm ci --no-audit --no-fund --loglevel=error
    cp package-lock.json node_modules/.mcserv-lock
fi
