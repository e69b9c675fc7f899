/**
 * What concurrency costs in memory: a target holding N requests in flight or N idle connections, its memory read
 * after a forced GC, and the cost of one more as a line's slope (footprint.json; its page: page).
 * <p>
 * FootprintExperiment (a fresh target per count, held, read, killed), Subject (a lab target or a jar of the user's:
 * started, warmed, read), Connections (the held sockets), MemorySnapshot (RSS, heap, NMT after a forced GC),
 * JvmGauges (heap and threads from an actuator or a JVM's management agent), Footprint (footprint.json, the fits).
 */
package dev.latencylab.lab.footprint;
