#!/usr/bin/env bash
# What each target does after its clients give up, and what blocking inside WebFlux does to everything else.
#  1. 500 clients ask for /hello/60000 and give up after 3 s. Then, every 2 s: does /hello (no latency) answer within
#     1.5 s, and how many requests does the server still wait for (hello.waiting)?
#  2. WebFlux: two /block/5000 (Thread.sleep on the parallel scheduler, one thread per core), then a /hello/100.
# Run from the repository root after ./mvnw -DskipTests package (it starts and stops both jars itself):
#   docs/results/abandoned-requests.sh | tee docs/results/abandoned-requests.txt
set -euo pipefail
cd "$(dirname "$0")/../.."
java=$(head -1 lab-runner/target/lab-launch.txt)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT

start() { # module port
  "$java" -jar "$1"/target/"$1"-*[0-9T].jar --server.port="$2" --management.server.port=$(($2 + 1000)) >"/tmp/abandoned-$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 120); do curl -sf "http://127.0.0.1:$(($2 + 1000))/actuator/health" >/dev/null && return; sleep 0.5; done
  echo "$1 did not start; see /tmp/abandoned-$1.log" >&2; exit 1
}
metric() { # port name
  curl -s --max-time 2 "http://127.0.0.1:$(($1 + 1000))/actuator/metrics/$2" | sed -n 's/.*"value":\([-0-9.E]*\).*/\1/p' | head -1
}
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

echo "# abandoned-requests.sh, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, $("$java" -version 2>&1 | head -1)"
for target in "mvc-with-latency 18091" "webflux-with-latency 18092"; do
  set -- $target
  module=$1 port=$2
  start "$module" "$port"
  echo
  echo "## $module ($([ "$module" = mvc-with-latency ] && echo '200 platform threads' || echo 'Reactor Netty'), defaults)"
  seq 500 | xargs -P 500 -I{} curl -s -o /dev/null --max-time 3 "http://127.0.0.1:$port/hello/60000" || true
  gave_up=$(now)
  echo "500 clients of /hello/60000 gave up after 3 s; from then on, every 2 s:"
  first_ok=""
  while :; do
    t=$(since "$gave_up")
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1.5 "http://127.0.0.1:$port/hello" || true)
    waiting=$(metric "$port" hello.waiting)
    [ -z "$first_ok" ] && [ "$code" = 200 ] && first_ok=$t
    printf 't=%6ss  /hello: %s  hello.waiting=%s\n' "$t" "$([ "$code" = 200 ] && echo answered || echo 'no answer within 1.5 s')" "${waiting%.0}"
    if [ "$code" = 200 ] && [ "${waiting%.0}" = 0 ]; then break; fi
    if awk -v t="$t" 'BEGIN { exit !(t > 300) }'; then echo "gave up watching after 300 s"; break; fi
    sleep 2
  done
  echo "result: /hello first answered ${first_ok:-never} s after the clients gave up; nothing left waiting at $(since "$gave_up") s;" \
    "hello.waited=$(metric "$port" hello.waited) hello.cancelled=$(metric "$port" hello.cancelled)"
done

echo
echo "## webflux-with-latency: two /block/5000 on the parallel scheduler, then /hello/100"
curl -s -o /dev/null -w '/hello/100 alone answered in %{time_total} s\n' "http://127.0.0.1:18092/hello/100"
blockers=()
for _ in 1 2; do curl -s -o /dev/null "http://127.0.0.1:18092/block/5000?scheduler=parallel" & blockers+=($!); done
sleep 0.3
curl -s -o /dev/null -w '/hello/100 sent 0.3 s after them answered in %{time_total} s\n' "http://127.0.0.1:18092/hello/100"
wait "${blockers[@]}"
