package dev.latencylab.lab;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/**
 * The order in which failsafe hands out the integration test classes (lab-runner/pom.xml): the longest at both ends,
 * so that no lane ends with a long class alone. Its three lanes are a fork/join pool's: the thread that forks every
 * class runs them from the back of this order, the two others take them from the front; the longest go by turns to the
 * front, the front, then the back, and every other class, shorter, sits in the middle (the @Isolated ones run last
 * whatever their place).
 */
public final class LongestFirst implements ClassOrderer {

    /** The longest classes, longest first: their times in the failsafe reports of a verify on 29 Nov 2026. */
    static final List<String> LONGEST = List.of("DependencyTargetsIT", "LabCommandLineIT", "SweepIT", "OwnServiceIT", "OwnSimulationIT",
            "SimulationIT", "StoppedWorkIT", "OwnServiceTrustIT", "InjectorsIT", "ComposeIT", "OtherJdkIT", "PageInBrowserIT", "FootprintIT",
            "DownstreamIT", "LiveViewIT");

    @Override
    public void orderClasses(ClassOrdererContext context) {
        List<String> order = order(context.getClassDescriptors().stream().map(c -> c.getTestClass().getSimpleName()).toList());
        context.getClassDescriptors().sort(Comparator.comparingInt((ClassDescriptor c) -> order.indexOf(c.getTestClass().getSimpleName())));
    }

    /** These classes (simple names, in the order found) as they are to be handed out. */
    static List<String> order(List<String> found) {
        List<String> front = new ArrayList<>();
        List<String> back = new ArrayList<>();
        List<String> named = LONGEST.stream().filter(found::contains).toList();
        for (int i = 0; i < named.size(); i++) {
            (i % 3 == 2 ? back : front).add(named.get(i));
        }
        List<String> order = new ArrayList<>(front);
        found.stream().filter(c -> !named.contains(c)).forEach(order::add);
        order.addAll(back.reversed());
        return order;
    }
}
