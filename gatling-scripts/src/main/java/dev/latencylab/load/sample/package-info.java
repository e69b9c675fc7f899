/** Sampling during a run: the server's metrics (Prometheus or Spring Boot's JSON), its pools, and this machine's CPU. */
package dev.latencylab.load.sample;
