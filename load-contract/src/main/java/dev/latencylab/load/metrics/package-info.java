/** Where a service publishes its metrics (Prometheus text or Spring Boot's JSON): the runner and the sampler ask alike. */
package dev.latencylab.load.metrics;
