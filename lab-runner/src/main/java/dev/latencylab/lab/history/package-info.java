/**
 * Did it get worse over time: the runs of one point in the order they ran, each metric's change points (Apache Otava's
 * method) and whether the machine changed there, and the gate on the newest change.
 */
package dev.latencylab.lab.history;
