/**
 * A run watched while it lasts: the load's seconds (live.jsonl, LiveFeedReader) served on loopback as a page of charts
 * fed by server-sent events and as Prometheus metrics (LiveServer, LiveMetrics), and said in a terminal line (LiveView).
 */
package dev.latencylab.lab.live;
