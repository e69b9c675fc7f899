/**
 * Comparisons: B against A, each metric's difference against the noise of the runs (./lab compare).
 * <p>
 * Comparison (B against A, point by point; what refuses a pair), SearchComparison (capacity searches against
 * searches: their settings, the capacity's interval over repeats), Side (what a path names), Metric (what is
 * compared, which way is better), Interval (Welch's t over repeats, batch means over seconds, searches' steps), Slo
 * (a run's objective, in the same METRIC:NUMBER words), SloGate (runs judged by it, each verdict kept in its result
 * file), BoundShift (which pool decided each side, from the server's metrics, and how far its bound and knee moved).
 */
package dev.latencylab.lab.compare;
