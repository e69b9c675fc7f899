package dev.latencylab.lab.summary;

import java.util.Collection;
import java.util.List;

import dev.latencylab.lab.run.Status;

/**
 * A run's or a point's flags, in the order its cell writes them: {@link Flags} names each and says when it is set; a KO
 * flag carries its share and most frequent reason ("ko 1.2% (HTTP 503)"). One cell in runs.csv, summary.csv and the
 * pages, "; " between them (its {@link #toString}).
 */
public final class RowFlags {

    private static final String SEPARATOR = "; ";
    private static final String KO = "ko ";

    /** A row that did not finish: its one flag. */
    static final RowFlags FAILED = of(Status.FAILED.toString());

    private final List<String> flags;

    private RowFlags(List<String> flags) {
        this.flags = flags;
    }

    public static RowFlags of(Collection<String> flags) {
        return new RowFlags(List.copyOf(flags));
    }

    public static RowFlags of(String... flags) {
        return new RowFlags(List.of(flags));
    }

    /** The KO flag of requests that failed: their share (in %) and their most frequent reason. */
    static String ko(double percent, String reason) {
        return KO + "%.1f%% (%s)".formatted(percent, reason);
    }

    public boolean has(String flag) {
        return flags.contains(flag);
    }

    /** Whether it has any of these flags. */
    public boolean hasAny(Collection<String> any) {
        return any.stream().anyMatch(flags::contains);
    }

    /** Every flag, in order. */
    public List<String> all() {
        return flags;
    }

    /** The flags but the KO one: a point's KO is the median of its runs', not their KO flags. */
    public List<String> withoutKo() {
        return flags.stream().filter(f -> !f.startsWith(KO)).toList();
    }

    public boolean isEmpty() {
        return flags.isEmpty();
    }

    /** The cell: the flags in order, "; " between them; empty for none. */
    @Override
    public String toString() {
        return String.join(SEPARATOR, flags);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowFlags other && flags.equals(other.flags);
    }

    @Override
    public int hashCode() {
        return flags.hashCode();
    }
}
