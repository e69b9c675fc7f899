/** The HTTP contract both targets share: body, latency parsing, RFC 9457 problems, waiting-request meters, the actuator port rule. */
package dev.latencylab.contract;
