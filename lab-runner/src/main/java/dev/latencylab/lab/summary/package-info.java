/**
 * Summary rows: one per run and one per point (median and range of its runs), their flags, the CSV tables, and the
 * request rate this machine's CPU allows each target (the machine ceiling).
 * <p>
 * Summary (run and point rows), Points (a point's row from its runs), Flags (their names and when each is set), RowFlags (a row's flags, in the order its cell writes them),
 * RecordCsv (rows as CSV), SloCell (a run's or point's SLO verdict in a cell), ResultsTable, Spread, MachineCeiling
 * (the rate this machine's CPU allows), PoolEvidence (what a server said of its own pools: the one full, its bound;
 * the sizes given), ServiceModel (a service's model, calibrated on its lightest load: L, L + Z, T / L, the knee),
 * Stages (what bounded each target at each load, and the load targets are set side by side at), Attribution (who a
 * verdict owes a figure to: the model, this machine or a finding, by one rule).
 */
package dev.latencylab.lab.summary;
