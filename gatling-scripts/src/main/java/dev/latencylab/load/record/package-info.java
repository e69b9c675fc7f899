/** Recording a run inside Gatling's JVM: each request's outcome and time, the open load's arrivals, and the result they make. */
package dev.latencylab.load.record;
