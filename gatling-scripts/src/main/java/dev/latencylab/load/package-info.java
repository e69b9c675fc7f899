/** What runs inside Gatling's JVM beside LoadSimulation: settings, preflight, sampling, the result file and the queueing model (no Gatling imports). */
package dev.latencylab.load;
