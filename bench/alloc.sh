#!/bin/bash
# alloc.sh — heap allocations per tick in steady state (issue 12). Builds the
# counting-allocator variant (make BUILD=build-count COUNT_ALLOC=1), and for
# each scenario starts it on a fresh flat world, joins the bots with mcbench,
# waits for steady state, waits for 200 more ticks and reads the per-tick
# figures of those 200 ticks from /metrics (core/tickstat.h): allocations
# inside tick_run() and in the whole tick period (the tick plus the loop passes
# that follow it: packets handled, chunks streamed, output flushed), median,
# p99 and max, plus frees and bytes per period. Not part of `make test`.
#
#   bench/alloc.sh [--bots N] [--scenarios "idle crowd"] [--settle S]
#                  [--sample-ticks N] [--trace 1|2] [--trace-lines N] [--rate R]
#
# Defaults: 100 bots joining at 50/s, scenarios idle then crowd, 10 s of
# settling after the last bot is online, a sample of 200 ticks, view
# distance 2, compression 256. The quantiles always cover the last 200 ticks
# of the sample; the mean covers all of it (--sample-ticks 1200: one minute,
# which includes the 30 s tab-list latency broadcast and every keep-alive).
# --trace 1 (inside tick_run()) or 2 (whole period) runs the server with
# MCSERV_ALLOC_TRACE and prints its report for exactly the sample's ticks
# (SIGUSR2 before and after; the most frequent call stacks, resolved with
# addr2line; the harness's second /metrics request shows up as admin/http.c
# stacks).
#
# Everything listens on 127.0.0.1 on free ports; only processes started here
# are stopped, by PID; every wait is bounded in count and time.
set -euo pipefail
cd "$(dirname "$0")/.."

BOTS=100
SCENARIOS="idle crowd"
SETTLE=10
TRACE=0
TRACE_LINES=120
RATE=50
TICKS=200 # ticks sampled; the quantiles cover the last 200 (TICKSTAT_ALLOC_WINDOW)
while [ $# -gt 0 ]; do
    case $1 in
    --bots) BOTS=$2; shift 2 ;;
    --scenarios) SCENARIOS=$2; shift 2 ;;
    --settle) SETTLE=$2; shift 2 ;;
    --trace) TRACE=$2; shift 2 ;;
    --trace-lines) TRACE_LINES=$2; shift 2 ;;
    --rate) RATE=$2; shift 2 ;;
    --sample-ticks) TICKS=$2; shift 2 ;;
    -h | --help) sed -n '2,26p' "$0"; exit 0 ;;
    *) echo "alloc.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
case $TRACE in 0 | 1 | 2) ;; *) echo "alloc.sh: --trace is 1 or 2" >&2; exit 2 ;; esac
for n in "$BOTS" "$SETTLE" "$RATE" "$TRACE_LINES" "$TICKS"; do
    if ! [[ $n =~ ^[0-9]+$ ]] || [ "$n" -eq 0 ]; then
        echo "alloc.sh: expected a positive number, got '$n'" >&2
        exit 2
    fi
done
if [ "$TICKS" -lt 200 ] || [ "$TICKS" -gt 72000 ]; then
    echo "alloc.sh: --sample-ticks is 200..72000" >&2
    exit 2
fi

B=build-count
make -s -j2 BUILD=$B COUNT_ALLOC=1 $B/mcserv $B/mcbench
nm $B/mcserv | grep ' T tickstat_alloc_read$' >/dev/null ||
    { echo "alloc.sh: $B/mcserv has no counting allocator (rm -rf $B and rerun)" >&2; exit 1; }

tmp=$(mktemp -d /tmp/mcserv-alloc-bench.XXXXXX)
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
metric() { # metric FILE NAME [LABELS]: the value of one sample, or empty
    local n=$2
    [ -n "${3:-}" ] && n="$2{$3}"
    awk -v n="$n" '$1==n{print $2; exit}' "$1"
}
stop_pid() { # SIGTERM, up to 10 s, then SIGKILL
    kill "$1" 2>/dev/null || return 0
    for _ in $(seq 100); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done
    kill -9 "$1" 2>/dev/null || true
}

# Resolves "module+0xOFF" frames of the trace against the binary.
symbolize() {
    local bin=$1
    while IFS= read -r line; do
        if [[ $line =~ ^(alloc-trace:\ +#[0-9]+)\ mcserv\+(0x[0-9a-f]+) ]]; then
            local where
            where=$(addr2line -f -i -p -C -e "$bin" "${BASH_REMATCH[2]}" 2>/dev/null |
                sed "s|$PWD/||g" | tr '\n' ' ')
            echo "${BASH_REMATCH[1]} ${where}"
        else
            echo "$line"
        fi
    done
}

declare -A RES RX
run_scenario() { # run_scenario NAME
    local sc=$1 dir=$tmp/$1 gp hp
    gp=$(free_port)
    hp=$(free_port)
    mkdir -p "$dir"
    cat >"$dir/server.properties" <<EOF
server-ip=127.0.0.1
server-port=$gp
online-mode=false
level-type=flat
view-distance=2
max-players=$((BOTS + 100))
network-compression-threshold=256
admin-http-port=$hp
motd=alloc bench
EOF
    local env=()
    [ "$TRACE" != 0 ] && env=(MCSERV_ALLOC_TRACE="$TRACE" MCSERV_ALLOC_TRACE_EVERY=0)
    (cd "$dir" && exec env "${env[@]}" "$OLDPWD/$B/mcserv" </dev/null >log 2>&1) &
    local spid=$!
    pids+=("$spid")
    for _ in $(seq 300); do grep -q 'Done (' "$dir/log" 2>/dev/null && break; sleep 0.1; done
    grep -q 'Done (' "$dir/log" || { echo "mcserv did not start:"; tail -20 "$dir/log"; exit 1; }

    # Hold long enough for the joins, the settling and the sample, with margin.
    local hold=$((SETTLE + 3 * (TICKS / 20 + 1) + 20))
    $B/mcbench --port "$gp" --bots "$BOTS" --rate "$RATE" --scenario "$sc" --duration "$hold" \
        --max-time $((hold + BOTS / RATE + 120)) --quiet --json "$dir/mcbench.json" \
        >"$dir/mcbench.log" 2>&1 &
    local bpid=$!
    pids+=("$bpid")
    local url=http://127.0.0.1:$hp/metrics online=0
    for _ in $(seq $((BOTS * 10 / RATE + 600))); do # joins at RATE/s, plus 60 s
        curl -s -m 2 "$url" >"$dir/m" || true
        online=$(metric "$dir/m" minecraft_players_online)
        [ "${online:-0}" -ge "$BOTS" ] && break
        kill -0 "$bpid" 2>/dev/null || break
        sleep 0.1
    done
    if [ "${online:-0}" -lt "$BOTS" ]; then
        echo "$sc: only ${online:-0} of $BOTS bots online"; tail -5 "$dir/mcbench.log"; exit 1
    fi
    sleep "$SETTLE"
    # Every /metrics request allocates on the game thread (the body, /proc
    # reads): so no polling during the sample. One scrape, then sleep past
    # TICKS ticks (at 20 TPS) and scrape again; the second scrape's figures
    # cover the TICKS complete ticks before it, which the first one precedes.
    # A slower server gets up to two more tries, each a fresh baseline.
    local t0 t1=0 a0 a1 g0 g1
    curl -s -m 2 "$url" >"$dir/m0"
    [ "$TRACE" != 0 ] && kill -USR2 "$spid" # the tracer's report starts here
    for _ in 1 2 3; do
        t0=$(metric "$dir/m0" minecraft_ticks_total)
        a0=$(metric "$dir/m0" mcserv_heap_allocations_total 'thread="other"')
        g0=$(metric "$dir/m0" mcserv_heap_allocations_total 'thread="game"')
        sleep $((TICKS / 20 + 1))
        curl -s -m 2 "$url" >"$dir/m1"
        t1=$(metric "$dir/m1" minecraft_ticks_total)
        [ "${t1:-0}" -ge $((t0 + TICKS + 1)) ] && break
        cp "$dir/m1" "$dir/m0"
        [ "$TRACE" != 0 ] && kill -USR2 "$spid"
    done
    [ "${t1:-0}" -ge $((t0 + TICKS + 1)) ] || { echo "$sc: the server did not run $TICKS ticks"; exit 1; }
    a1=$(metric "$dir/m1" mcserv_heap_allocations_total 'thread="other"')
    g1=$(metric "$dir/m1" mcserv_heap_allocations_total 'thread="game"')
    online=$(metric "$dir/m1" minecraft_players_online)
    local q row=""
    for m in mcserv_tick_heap_allocations mcserv_tick_period_heap_allocations \
        mcserv_tick_period_heap_frees mcserv_tick_period_heap_bytes; do
        for q in 0.5 0.99 1; do row+=" $(metric "$dir/m1" $m "quantile=\"$q\"")"; done
    done
    local mean other
    mean=$(python3 -c "print(f'{($g1 - $g0) / ($t1 - $t0):.3f}')")
    other=$(python3 -c "print(f'{($a1 - $a0) / ($t1 - $t0):.1f}')")
    RES[$sc]="$online $row $mean $other $(printf '%.2f' "$(metric "$dir/m1" minecraft_tps)") $((t1 - t0))"
    if [ "$TRACE" != 0 ]; then # the tracer reports the sample at its next tick
        local nrep
        nrep=$(grep -c '^alloc-trace: ticks ' "$dir/log" || true)
        kill -USR2 "$spid"
        for _ in $(seq 50); do # 5 s
            [ "$(grep -c '^alloc-trace: ticks ' "$dir/log" || true)" -gt "$nrep" ] && break
            sleep 0.1
        done
    fi
    stop_pid "$bpid" # SIGTERM: mcbench still writes its report
    stop_pid "$spid"
    RX[$sc]=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("%.2f %d" % (r["traffic"]["rx_mb_s"], r["moves_sent"]))' "$dir/mcbench.json" 2>/dev/null || echo "? ?")
    if [ "$TRACE" != 0 ]; then
        echo "== $sc: last trace report (MCSERV_ALLOC_TRACE=$TRACE)"
        awk '/^alloc-trace: ticks /{buf=""} /^alloc-trace:/{buf=buf $0 "\n"} END{printf "%s", buf}' \
            "$dir/log" | head -n "$TRACE_LINES" | symbolize $B/mcserv
    fi
    grep -E 'WARN|ERROR' "$dir/log" | grep -v 'OFFLINE/INSECURE' | head -5 || true
}

for sc in $SCENARIOS; do run_scenario "$sc"; done

echo
echo "game-thread heap calls per tick in steady state: quantiles over the last 200 ticks,"
echo "mean over the whole sample ($(nproc) CPUs, flat world, view distance 2, compression 256)"
fmt='%-8s %5s %6s | %-11s | %-11s %7s | %-11s | %-17s | %7s %6s | %7s %8s\n'
# shellcheck disable=SC2059
printf "$fmt" scenario bots ticks "in tick" "period" "" "frees" "bytes" other TPS "bots rx" "moves"
# shellcheck disable=SC2059
printf "$fmt" "" "" "" p50/p99/max p50/p99/max mean p50/p99/max p50/p99/max "mean" "" "MB/s" "sent"
for sc in $SCENARIOS; do
    # shellcheck disable=SC2086
    set -- ${RES[$sc]} ${RX[$sc]}
    # shellcheck disable=SC2059
    printf "$fmt" "$sc" "$1" "${17}" "$2/$3/$4" "$5/$6/$7" "${14}" "$8/$9/${10}" \
        "${11}/${12}/${13}" "${15}" "${16}" "${18}" "${19}"
done
echo "(in tick: inside tick_run(); period: the tick plus the loop passes up to the next one"
echo " (packets handled, chunks streamed, output flushed); mean: all game-thread allocations"
echo " over the sample per tick, including the harness's two /metrics requests (~7 calls);"
echo " other: allocations per tick on the other threads (chunk workers, login);"
echo " bots rx, moves: what mcbench received and sent over its whole run)"
