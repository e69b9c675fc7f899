/**
 * Pages and charts: the sweep comparison page, a run's page, the runs page, the hockey-stick chart, and how a figure
 * is printed for a reader.
 */
package dev.latencylab.lab.page;
