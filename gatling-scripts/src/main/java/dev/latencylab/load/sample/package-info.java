/**
 * Sampling during a run: the server's metrics (Prometheus or Spring Boot's JSON), its pools, and the CPU of this machine
 * or of the CPUs a run was pinned to (CpuShares over RunCpus, from ProcCpu's readings of /proc and CpuAffinity's).
 */
package dev.latencylab.load.sample;
