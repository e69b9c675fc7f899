/**
 * A run watched while it lasts: the load's seconds (live.jsonl, LiveFeedReader) served on loopback as a page of
 * charts fed by server-sent events and as Prometheus metrics (LiveServer, LiveMetrics), and said in a terminal line
 * (LiveView).
 * <p>
 * LiveView (the feed of the run it follows read, a line on the console every 5 s, or StatusLine's, rewritten in place
 * each second on a terminal), LiveFeedReader (live.jsonl's new lines), LiveServer (the page, uPlot from its webjar,
 * the seconds as server-sent events, the run's folder once it ended; loopback only), LiveMetrics (the same at
 * /metrics, through Micrometer's Prometheus registry).
 */
package dev.latencylab.lab.live;
