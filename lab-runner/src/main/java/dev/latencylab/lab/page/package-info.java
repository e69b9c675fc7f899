/**
 * Pages and charts: the sweep comparison page, a run's page, the runs page, the hockey-stick chart and a capacity
 * search's table, and the verdicts they open with.
 * <p>
 * SweepPage (a sweep's page and files), SweepCharts (its charts), ChartStyle (a target's colour and marker on every
 * chart), SweepSource (one sweep as a page reads it), SweepPageHtml (what its index.html shows), RequestTimes (each
 * request of a mix or flow at each load: its p50), ChartLines (the model's lines, a service's pool bounds, the
 * machine ceilings beside a chart's data; where an axis ends), RunPage, RunsPage, HockeyStickChart, CapacityReport (a
 * search's chart and table), ComparePage (./lab compare's page and verdict), HistoryPage (./lab history's page),
 * FootprintPage, Verdict (what a page opens with, in words), ServiceWords (a service's stages in words: the pool its
 * metrics show full, or nothing it publishes), LivePage (the live view's page, live.jte, whose charts uPlot draws in
 * the browser), Templates (the pages of src/main/jte: page.jte holds the one stylesheet), Strong (a verdict's line in
 * parts, a target's name strong), Html (figures as tables show them).
 */
package dev.latencylab.lab.page;
