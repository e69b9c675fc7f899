/**
 * What a command does once its input is checked, start to end: the folder it makes, the work it runs with its live
 * view, what it says, and its exit code. The command line parses and delegates here; a flow knows no option.
 */
package dev.latencylab.lab.flow;
