package dev.latencylab.lab.summary;

import java.util.List;

/**
 * Who a verdict owes a figure to, in the three words every verdict, page and document uses, by one rule (the glossary
 * states it as this applies it): <b>this machine</b> where the stage is this machine's CPU, or the point is flagged
 * machine-cpu-bound or near-machine-ceiling (its model throughput at {@link MachineCeiling#NEAR} of the ceiling this
 * machine's CPU gives, or above), even where it met the model: another machine gives another figure; <b>a finding</b>
 * where its goodput is below the model and no bound the lab names (Tomcat's connection cap) explains it; else <b>the
 * model</b>: the queueing model and the servers' settings.
 */
public enum Attribution {
    MODEL("the model"), MACHINE("this machine"), FINDING("a finding");

    /** The flags that make a point's figure this machine's. */
    public static final List<String> MACHINE_FLAGS = List.of(Flags.MACHINE_CPU_BOUND, Flags.NEAR_MACHINE_CEILING);

    private final String words;

    Attribution(String words) {
        this.words = words;
    }

    public String words() {
        return words;
    }

    /**
     * A stage's, by its bound and the point it cites.
     *
     * @param named for a stage below the model, whether a bound the lab names explains it (Tomcat's connection cap)
     */
    public static Attribution of(Stages.Cause bound, Summary.PointRow p, boolean named) {
        if (bound == Stages.Cause.MACHINE) {
            return MACHINE;
        }
        if (bound == Stages.Cause.BELOW_MODEL && !named) {
            return FINDING;
        }
        return ofFlags(p);
    }

    /** A point's by its flags alone: this machine where they say so, else the model. */
    public static Attribution ofFlags(Summary.PointRow p) {
        return p.flags().hasAny(MACHINE_FLAGS) ? MACHINE : MODEL;
    }
}
