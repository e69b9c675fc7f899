/** Checks before the load starts: the target answers, its metrics can be read, and this machine has the descriptors. */
package dev.latencylab.load.preflight;
