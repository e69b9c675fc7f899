/**
 * This machine: its fingerprint (which machine a run ran on) and the versions the lab runs with.
 */
package dev.latencylab.lab.machine;
