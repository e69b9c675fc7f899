/**
 * ./lab's command line: one class per subcommand (run, sweep, capacity, report, merge, rebuild-docs), their shared
 * options and the checks of what a user typed.
 */
package dev.latencylab.lab.cli;
