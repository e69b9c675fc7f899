package dev.latencylab.lab.flow;

/**
 * What ./lab exits with, every command alike; stopped by a signal, 128 + its number (130 Ctrl-C, 143 SIGTERM), the
 * JVM's after its hooks. Their meanings, for --help and the docs, are Reference's.
 */
public final class ExitCode {

    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int BAD_INPUT = 2;
    /** ./lab compare --fail-if-worse: B is worse than A beyond the noise and the limit given. */
    public static final int WORSE = 3;
    /** ./lab compare --fail-if-worse: a gated metric that these sides cannot judge (no interval, or no such metric). */
    public static final int CANNOT_JUDGE = 4;
    /** ./lab run --slo: the run missed the objective it was given. */
    public static final int SLO_MISSED = 5;

    private ExitCode() {
    }
}
