/** Tests of the target jars as the runner and users start them: settings, parity, the actuator port. */
package dev.latencylab.lab.targets;
