/**
 * Running a target: start it (and its database or downstream) as its own process, warm it up, run Gatling's JVM
 * against it, watch its dependencies, end everything it started, even on a signal; and the run's record (point.json).
 */
package dev.latencylab.lab.run;
