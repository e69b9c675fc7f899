/** The ./lab runner: starts targets, runs the simulation as a user does, sweeps, summary, charts and the comparison page. */
package dev.latencylab.lab;
