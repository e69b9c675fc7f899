/**
 * Sweeps: the plan of points (targets by users, repeated), each point's runs, resumed by name.
 * <p>
 * Sweep (the points run in turn, resumed, failed ones recorded), SweepPlan (what defines a sweep, in named parts),
 * Preset (the default and quick matrices), SweepFile (sweep.json: plan, machine, versions), SweepStart (a sweep
 * begun, or resumed: refused with other settings, extended to more runs), RunLines (a run's line on the console, and
 * the time a sweep has left).
 */
package dev.latencylab.lab.sweep;
