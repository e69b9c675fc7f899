/**
 * Did it get worse over time: the runs of one point under one load in the order they ran, each metric's change points
 * (Apache Otava's method, three runs on each side at least) and whether the machine changed there and which way, and
 * the gate on the newest change.
 * <p>
 * History (a series' runs in order, each metric's change points and the newest runs that differ, too few to call a
 * change), Series (which runs are one series: a point and its load's settings), ChangePoints (Apache Otava's method,
 * E-divisive means and a t-test; OtavaAgreementTest runs Otava on the same series), HistoryRuns (the runs under the
 * paths given), RunStart (each run's start, checked against its end and its own record), MachineShift (what changed in
 * the machine at a change point, and which way), ChangeGate (--fail-on-change: worse, pass or cannot judge),
 * HistoryLines (a history in the console's words).
 */
package dev.latencylab.lab.history;
