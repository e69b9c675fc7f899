#!/usr/bin/env bash
# Cross-check with another load tool: wrk, 400 connections, against MVC with 200 threads at /hello/100.
# The model says a pool of T=200 threads serving L=100 ms requests saturates at T/L = 2,000 req/s.
# Usage: docs/results/wrk-crosscheck.sh [seconds]   (needs wrk: apt-get install wrk). Writes docs/results/wrk-mvc-t200.txt.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-30}"
command -v wrk >/dev/null || { echo "wrk is not installed: apt-get install wrk" >&2; exit 2; }
out=docs/results/wrk-mvc-t200.txt

./mvnw -q -B -pl mvc-with-latency -am -DskipTests spring-boot:run \
  -Dspring-boot.run.arguments="--server.tomcat.threads.max=200" > target-wrk-mvc.log 2>&1 &
maven=$!
stop() {
  # End the target we started: Maven and the JVM it forked, by PID.
  for pid in $(pgrep -P "$maven") "$maven"; do kill "$pid" 2>/dev/null || true; done
  wait "$maven" 2>/dev/null || true
  rm -f target-wrk-mvc.log
}
trap stop EXIT
for _ in $(seq 120); do
  curl -fs http://127.0.0.1:9091/actuator/health >/dev/null 2>&1 && break
  sleep 1
done
curl -fs http://127.0.0.1:9091/actuator/health >/dev/null || { echo "MVC did not start; see target-wrk-mvc.log" >&2; exit 1; }

wrk -t2 -c400 -d5s http://127.0.0.1:8091/hello/100 >/dev/null   # warm-up, not recorded
{
  echo "# wrk $(wrk --version 2>&1 | head -1 | cut -d' ' -f2), $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) cores"
  echo "# target: mvc-with-latency, server.tomcat.threads.max=200, GET /hello/100; model: T/L = 2,000 req/s"
  echo "\$ wrk -t2 -c400 -d${seconds}s --latency http://127.0.0.1:8091/hello/100"
  wrk -t2 -c400 -d"${seconds}s" --latency http://127.0.0.1:8091/hello/100
} | tee "$out"
