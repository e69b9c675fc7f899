/** The launch files the build writes, from which the runner starts itself and Gatling's JVM without Maven. */
package dev.latencylab.load.launch;
