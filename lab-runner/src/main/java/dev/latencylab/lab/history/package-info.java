/**
 * Did it get worse over time: the runs of one point in the order they ran, each metric's change points (Apache
 * Otava's method) and whether the machine changed there, and the gate on the newest change.
 * <p>
 * History (a point's runs in order, each metric's change points), ChangePoints (Apache Otava's method, E-divisive
 * means and a t-test; OtavaAgreementTest runs Otava on the same series), HistoryRuns (the runs under the paths
 * given), MachineShift (what changed in the machine at a change point), ChangeGate (--fail-on-change), HistoryLines
 * (a history in the console's words).
 */
package dev.latencylab.lab.history;
