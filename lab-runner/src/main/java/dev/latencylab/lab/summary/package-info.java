/**
 * Summary rows: one per run and one per point (median and range of its runs), their flags, the CSV tables, and the
 * request rate this machine's CPU allows each target (the machine ceiling).
 */
package dev.latencylab.lab.summary;
