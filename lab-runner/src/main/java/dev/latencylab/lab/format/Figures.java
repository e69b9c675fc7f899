package dev.latencylab.lab.format;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** How the runner prints a figure for a reader: the console, the pages, the verdicts and the tables alike. */
public final class Figures {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("d MMM yyyy HH:mm 'UTC'", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    /** When a run started, from its result's ISO instant: 22 Nov 2026 06:38 UTC. */
    public static String when(String isoInstant) {
        return WHEN.format(Instant.parse(isoInstant));
    }

    private Figures() {
    }

    /** A rate: grouped, whole when it is (2,000), else to two decimals at most (12.5). */
    public static String rate(double r) {
        return r == Math.rint(r) ? "%,.0f".formatted(r) : "%,.2f".formatted(r).replaceAll("0$", "");
    }

    /** A measured value: grouped and whole from 100 or when whole (1,991; 0), else to two decimals (0.19). */
    public static String value(double v) {
        return Math.abs(v) >= 100 || v == Math.rint(v) ? "%,.0f".formatted(v) : "%,.2f".formatted(v);
    }

    /** A number as the user typed it (an objective's limit): every digit given, none added (0.001, 200). */
    public static String given(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** A difference, its sign always shown (+1,123; -0.09). */
    public static String signed(double v) {
        return (v >= 0 ? "+" : "-") + value(Math.abs(v));
    }

    /** A duration as m:ss min. */
    public static String minutes(Duration d) {
        return "%d:%02d min".formatted(d.toMinutes(), d.toSecondsPart());
    }
}
