/**
 * ./lab's command line: a class per subcommand, the options several share, the checks of what a user typed, and the
 * console they print to (picocli's writers).
 */
package dev.latencylab.lab.cli;
