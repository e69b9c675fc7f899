/**
 * What a command does once its input is checked, start to end: the folder it makes, the work it runs with its live
 * view, what it says, and its exit code. The command line parses and delegates here; a flow knows no option.
 * <p>
 * TargetRunFlow and ServiceRunFlow (./lab run of a target, of a service: the folder, the run with its live view, what
 * is said), SweepFlow (a sweep begun or resumed, its points run, judged, said), CapacityFlow (searches in turn, each
 * judged and said), FootprintFlow (an experiment begun or resumed, measured, its page and table), RunEnd (what a run
 * says once it ended, and its exit code), SloVerdicts (--slo on run and sweep: judged once, then said), LiveStart
 * (how the live view is opened, as the options say), ExitCode.
 */
package dev.latencylab.lab.flow;
