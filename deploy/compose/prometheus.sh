#!/bin/sh
# Prometheus of compose's monitor profile. It shares the host's network (network_mode: host), so that it reaches the
# lab's live view, which listens on 127.0.0.1 only, and the targets' published actuator ports. Prometheus reads no
# variables in its configuration: this writes it from those compose gives, then starts it.
set -eu
cat >/tmp/prometheus.yml <<CONFIG
global:
  scrape_interval: ${SCRAPE_INTERVAL:-2s}
  scrape_timeout: ${SCRAPE_INTERVAL:-2s}
scrape_configs:
  - job_name: latency-lab
    static_configs: [{targets: ["127.0.0.1:${LAB_LIVE_PORT:-9400}"]}]
  - job_name: mvc-with-latency
    metrics_path: /actuator/prometheus
    static_configs: [{targets: ["127.0.0.1:${MVC_MANAGEMENT_PORT:-9091}"]}]
  - job_name: webflux-with-latency
    metrics_path: /actuator/prometheus
    static_configs: [{targets: ["127.0.0.1:${WEBFLUX_MANAGEMENT_PORT:-9092}"]}]
CONFIG
exec prometheus --config.file=/tmp/prometheus.yml --storage.tsdb.path=/tmp/prometheus-data \
  --web.listen-address="127.0.0.1:${PROMETHEUS_PORT:-9090}" "$@"
