/**
 * Summary rows: one per run and one per point (median and range of its runs), their flags, the CSV tables and the
 * verdicts the pages open with.
 */
package dev.latencylab.lab.summary;
