package dev.latencylab.load.preflight;

import dev.latencylab.load.settings.SimulationSettings;

/**
 * The moment the runner agreed for the load to begin, waited for: several injectors start together (a moment past
 * starts at once, and says how late), and a run alone may be given one too, for its load to begin when the warm-up of
 * its target ends. The lab's simulation and a user's wait alike.
 */
public final class AgreedStart {

    private AgreedStart() {
    }

    public static void await(SimulationSettings settings) {
        settings.split().startAt().ifPresent(at -> {
            long waitMs = at.toEpochMilli() - System.currentTimeMillis();
            String who = settings.split().split() ? "injector %d of %d".formatted(settings.split().index(), settings.split().injectors()) : "the load";
            if (waitMs > 0) {
                System.out.printf("latency-lab: %s waits %d ms for its start (%s)%n", who, waitMs, SimulationSettings.START_AT);
                try {
                    Thread.sleep(waitMs);
                }
                catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            else if (waitMs < 0 && settings.split().split()) {
                System.out.printf("latency-lab: %s starts %d ms after the common start%n", who, -waitMs);
            }
        });
    }
}
