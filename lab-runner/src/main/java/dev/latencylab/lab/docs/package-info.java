/**
 * The published files: which pages, tables and charts ./lab rebuild-docs writes from their data, and the reference
 * tables the help and the docs share.
 * <p>
 * Published (what rebuild-docs writes), Reference (tables the help and the docs share).
 */
package dev.latencylab.lab.docs;
