/** Comparisons: B against A, each metric's difference against the noise of the runs (./lab compare). */
package dev.latencylab.lab.compare;
