/**
 * This machine: its fingerprint (which machine a run ran on) and the versions the lab runs with.
 * <p>
 * Machine (description, fingerprint, versions).
 */
package dev.latencylab.lab.machine;
