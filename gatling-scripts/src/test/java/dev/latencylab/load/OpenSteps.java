package dev.latencylab.load;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import dev.latencylab.load.settings.OpenLoad;

import io.gatling.javaapi.core.OpenInjectionStep;

/**
 * An open load as Gatling injects it, for the lab's simulation and a user's alike: a ramp from the previous rate to each
 * rate, then the rate held for a level (see {@link OpenLoad}); and when each arrival of those steps is due. The steps a
 * user's simulation injected through LabLoad are kept here, in its JVM, so that the run's levels are timed from the
 * very schedule Gatling followed (a Poisson step keeps its seed).
 */
public final class OpenSteps {

    private static final AtomicReference<List<io.gatling.core.controller.inject.open.OpenInjectionStep>> INJECTED = new AtomicReference<>();

    private OpenSteps() {
    }

    /** Gatling's steps for this load. */
    public static List<OpenInjectionStep> of(OpenLoad load) {
        List<OpenInjectionStep> steps = new ArrayList<>();
        Duration ramp = load.ramp();
        for (int i = 0; i < load.rates().size(); i++) {
            double rate = load.rates().get(i);
            double from = i == 0 ? 0.0 : load.rates().get(i - 1);
            var rampStep = rampUsersPerSec(from).to(rate).during(ramp);
            var levelStep = constantUsersPerSec(rate).during(load.level());
            steps.add(load.poisson() ? rampStep.randomized() : rampStep);
            steps.add(load.poisson() ? levelStep.randomized() : levelStep);
        }
        return steps;
    }

    /** Keeps the steps a simulation of the user's injects (through LabLoad, from any DSL), for its run's result. */
    public static void remember(List<OpenInjectionStep> steps) {
        INJECTED.set(steps.stream().map(OpenInjectionStep::asScala).toList());
    }

    /** The steps injected through LabLoad in this JVM, if any were. */
    public static Optional<List<io.gatling.core.controller.inject.open.OpenInjectionStep>> remembered() {
        return Optional.ofNullable(INJECTED.get());
    }

    /**
     * When each arrival of these steps is due, ms after the injection starts, in the order Gatling numbers its users:
     * Gatling's own schedule, from the same step objects it injects, through the method it composes them with (public in
     * the bytecode, package-private in Scala: read by reflection). A Gatling that changed it fails the run before any
     * load: ArrivalRecorder refuses a schedule that does not follow the plan.
     */
    public static long[] dueOffsetsMs(List<io.gatling.core.controller.inject.open.OpenInjectionStep> steps) {
        try {
            Method chain = io.gatling.core.controller.inject.open.OpenInjectionStep.class.getMethod("chain", scala.collection.Iterator.class);
            scala.collection.Iterator<?> next = scala.collection.Iterator$.MODULE$.empty();
            for (int i = steps.size() - 1; i >= 0; i--) {
                next = (scala.collection.Iterator<?>) chain.invoke(steps.get(i), next);
            }
            List<Long> due = new ArrayList<>();
            while (next.hasNext()) {
                due.add(((scala.concurrent.duration.FiniteDuration) next.next()).toMillis());
            }
            return due.stream().mapToLong(Long::longValue).toArray();
        }
        catch (NoSuchMethodException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("Gatling's OpenInjectionStep.chain, by which the lab times arrivals from due, is not "
                    + "what it was: " + e, e);
        }
    }
}
