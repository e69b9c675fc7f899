/**
 * What concurrency costs in memory: a target holding N requests in flight or N idle connections, its memory read
 * after a forced GC, and the cost of one more as a line's slope (footprint.json; its page: page).
 */
package dev.latencylab.lab.footprint;
