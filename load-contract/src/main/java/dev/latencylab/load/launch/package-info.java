/**
 * The launch files the build writes, from which the runner starts itself and Gatling's JVM without Maven
 * (LaunchFile), the AOT cache the build trains for each of those JVMs and names in its launch file (AotCache), and the
 * CPUs a process may run on (CpuAffinity).
 */
package dev.latencylab.load.launch;
