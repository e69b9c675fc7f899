package dev.latencylab.lab.format;

import java.time.Duration;

/** How the runner prints a figure for a reader: the console, the pages, the verdicts and the tables alike. */
public final class Figures {

    private Figures() {
    }

    /** A rate: grouped, whole when it is (2,000), else to two decimals at most (12.5). */
    public static String rate(double r) {
        return r == Math.rint(r) ? "%,.0f".formatted(r) : "%,.2f".formatted(r).replaceAll("0$", "");
    }

    /** A duration as m:ss min. */
    public static String minutes(Duration d) {
        return "%d:%02d min".formatted(d.toMinutes(), d.toSecondsPart());
    }
}
