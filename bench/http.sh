#!/bin/bash
# http.sh — wrk against mcserv's HTTP admin endpoint (/metrics, /api/status)
# and, in the same run, against nginx serving static files of exactly the
# same sizes (the bodies mcserv returned), then prints requests per second,
# latency and the mcserv/nginx ratio. Not part of `make test`.
#
#   bench/http.sh [--duration S] [--connections N] [--threads N] [--bots N]
#                 [--nginx-workers N]
#
# Defaults: 10 s per run, 32 connections (mcserv accepts 64), 2 wrk threads,
# 20 mcbench bots online (so /api/status carries 20 players and the game
# thread is ticking a real load), nginx with 1 worker process (mcserv serves
# HTTP from its one game thread; --nginx-workers 2 shows nginx with more).
# The game's TPS is read from /metrics after each mcserv run: the HTTP load
# must not slow the ticks.
#
# Everything listens on 127.0.0.1 on free ports; every process started here
# is stopped by its PID on exit; every wait is bounded.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=10
CONNS=32
THREADS=2
BOTS=20
NGINX_WORKERS=1
while [ $# -gt 0 ]; do
    case $1 in
    --duration) DURATION=$2; shift 2 ;;
    --connections) CONNS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --bots) BOTS=$2; shift 2 ;;
    --nginx-workers) NGINX_WORKERS=$2; shift 2 ;;
    -h | --help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "http.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

missing=""
for tool in wrk nginx curl python3; do
    command -v "$tool" >/dev/null || missing="$missing $tool"
done
if [ -n "$missing" ]; then # Debian packages of the same names (nginx-light is enough)
    echo "http.sh: installing:${missing/nginx/nginx-light}"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        ${missing/nginx/nginx-light} >/dev/null
fi
make -s build/mcserv build/mcbench

tmp=$(mktemp -d /tmp/mcserv-http-bench.XXXXXX)
chmod 755 "$tmp"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$p" 2>/dev/null || true
    done
    rm -rf "$tmp"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
GAME_PORT=$(free_port)
HTTP_PORT=$(free_port)
NGINX_PORT=$(free_port)

# --- mcserv
mkdir -p "$tmp/mc"
cat >"$tmp/mc/server.properties" <<EOF
server-ip=127.0.0.1
server-port=$GAME_PORT
online-mode=false
level-type=flat
view-distance=4
max-players=200
admin-http-port=$HTTP_PORT
EOF
(cd "$tmp/mc" && exec "$OLDPWD/build/mcserv" </dev/null >log 2>&1) &
pids+=($!)
for _ in $(seq 200); do grep -q 'Done (' "$tmp/mc/log" 2>/dev/null && break; sleep 0.1; done
grep -q 'Done (' "$tmp/mc/log" || { echo "mcserv did not start:"; cat "$tmp/mc/log"; exit 1; }

if [ "$BOTS" -gt 0 ]; then
    hold=$((DURATION * 4 + 30))
    build/mcbench --port "$GAME_PORT" --bots "$BOTS" --duration "$hold" --max-time $((hold + 60)) \
        --quiet --name-prefix web >"$tmp/mcbench.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 300); do
        online=$(curl -s "http://127.0.0.1:$HTTP_PORT/metrics" | awk '$1=="minecraft_players_online"{print $2}')
        [ "${online:-0}" -ge "$BOTS" ] && break
        sleep 0.1
    done
    echo "bots online: ${online:-0} of $BOTS"
fi

# --- nginx: static copies of exactly what mcserv answers
mkdir -p "$tmp/www" "$tmp/nginx"
chmod 755 "$tmp/www"
curl -s "http://127.0.0.1:$HTTP_PORT/metrics" >"$tmp/www/metrics.txt"
curl -s "http://127.0.0.1:$HTTP_PORT/api/status" >"$tmp/www/status.json"
chmod 644 "$tmp/www/"*
cat >"$tmp/nginx/nginx.conf" <<EOF
worker_processes $NGINX_WORKERS;
daemon off;
pid $tmp/nginx/nginx.pid;
error_log $tmp/nginx/error.log warn;
$( [ "$(id -u)" = 0 ] && echo "user root root;" )
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    types { text/plain txt; application/json json; }
    server {
        listen 127.0.0.1:$NGINX_PORT;
        root $tmp/www;
        add_header Cache-Control no-store;
    }
}
EOF
nginx -c "$tmp/nginx/nginx.conf" -p "$tmp/nginx" &
pids+=($!)
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$NGINX_PORT/metrics.txt" >/dev/null && break; sleep 0.1; done

# --- runs
declare -A RPS P50 P99
run() { # run NAME URL
    local out
    out=$(wrk -t"$THREADS" -c"$CONNS" -d"${DURATION}s" --latency "$2")
    RPS[$1]=$(echo "$out" | awk '/^Requests\/sec:/{print $2}')
    P50[$1]=$(echo "$out" | awk '$1=="50%"{print $2}')
    P99[$1]=$(echo "$out" | awk '$1=="99%"{print $2}')
    local errs
    errs=$(echo "$out" | grep -E 'Non-2xx|Socket errors' || true)
    [ -n "$errs" ] && echo "  $1: $errs"
    return 0
}
tps() { curl -s "http://127.0.0.1:$HTTP_PORT/metrics" | awk '$1=="minecraft_tps"{printf "%.2f", $2}'; }

echo "wrk -t$THREADS -c$CONNS -d${DURATION}s; nginx $(nginx -v 2>&1 | sed 's/.*nginx\///') with $NGINX_WORKERS worker(s); $(nproc) CPUs"
run mcserv_metrics "http://127.0.0.1:$HTTP_PORT/metrics"
TPS_M=$(tps)
run nginx_metrics "http://127.0.0.1:$NGINX_PORT/metrics.txt"
run mcserv_status "http://127.0.0.1:$HTTP_PORT/api/status"
TPS_S=$(tps)
run nginx_status "http://127.0.0.1:$NGINX_PORT/status.json"

size_m=$(stat -c %s "$tmp/www/metrics.txt")
size_s=$(stat -c %s "$tmp/www/status.json")
printf '\n%-26s %8s %12s %10s %10s %8s\n' "target" "bytes" "requests/s" "p50" "p99" "TPS"
printf '%-26s %8s %12s %10s %10s %8s\n' "mcserv /metrics" "$size_m" "${RPS[mcserv_metrics]}" "${P50[mcserv_metrics]}" "${P99[mcserv_metrics]}" "$TPS_M"
printf '%-26s %8s %12s %10s %10s %8s\n' "nginx  static, same size" "$size_m" "${RPS[nginx_metrics]}" "${P50[nginx_metrics]}" "${P99[nginx_metrics]}" "-"
printf '%-26s %8s %12s %10s %10s %8s\n' "mcserv /api/status" "$size_s" "${RPS[mcserv_status]}" "${P50[mcserv_status]}" "${P99[mcserv_status]}" "$TPS_S"
printf '%-26s %8s %12s %10s %10s %8s\n' "nginx  static, same size" "$size_s" "${RPS[nginx_status]}" "${P50[nginx_status]}" "${P99[nginx_status]}" "-"
ratio() { python3 -c "print(f'{$1/$2:.2f}')"; }
echo
echo "ratio mcserv/nginx, /metrics:    $(ratio "${RPS[mcserv_metrics]}" "${RPS[nginx_metrics]}")"
echo "ratio mcserv/nginx, /api/status: $(ratio "${RPS[mcserv_status]}" "${RPS[nginx_status]}")"
grep -E 'WARN|ERROR' "$tmp/mc/log" | grep -v 'OFFLINE/INSECURE' | head -5 || true
