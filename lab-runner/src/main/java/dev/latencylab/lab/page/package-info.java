/**
 * Pages and charts: the sweep comparison page, a run's page, the runs page, the hockey-stick chart and a capacity
 * search's table, and the verdicts they open with.
 */
package dev.latencylab.lab.page;
