package dev.latencylab.contract;

import java.time.Duration;

/** Parses the {@code {latency}} path segment: a whole number of milliseconds from 0 to a cap. */
public final class Latency {

    private Latency() {
    }

    /** @throws InvalidParameterException before any waiting, for anything but 0..maxMs */
    public static Duration parse(String raw, long maxMs) {
        String allowed = "a whole number of milliseconds from 0 to %d (cap: %s)".formatted(maxMs, Hello.MAX_LATENCY_PROPERTY);
        if (raw == null || !raw.matches("-?[0-9]+")) {
            throw new InvalidParameterException("latency", raw, "is not a whole number", allowed);
        }
        long ms;
        try {
            ms = Long.parseLong(raw);
        }
        catch (NumberFormatException overflow) {
            throw new InvalidParameterException("latency", raw, "is out of range", allowed);
        }
        if (ms < 0 || ms > maxMs) {
            throw new InvalidParameterException("latency", raw, "is out of range", allowed);
        }
        return Duration.ofMillis(ms);
    }
}
