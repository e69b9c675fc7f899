package dev.latencylab.lab;

import java.util.BitSet;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

import dev.latencylab.load.launch.CpuAffinity;

/**
 * One CPU lent to one test (see {@link OnOwnCpu}): the processes it starts run there alone, through {@link #taskset}.
 *
 * @param id the CPU's number, as taskset and /proc/stat name it
 */
public record OwnCpu(int id) {

    /** The prefix that starts a command on this CPU alone. */
    public List<String> taskset() {
        return List.of("taskset", "-c", Integer.toString(id));
    }

    /**
     * Lends each test a CPU this JVM may run on, for the test's length: a test waits while every CPU is lent, so two
     * tests never share one however many run at once. A test of such a class that takes none would run beside the
     * others on every CPU: it is refused.
     */
    public static final class Lender implements ParameterResolver, BeforeEachCallback {

        private static final BlockingQueue<OwnCpu> FREE = new LinkedBlockingQueue<>(allowed().stream().mapToObj(OwnCpu::new).toList());

        @Override
        public void beforeEach(ExtensionContext context) {
            if (!java.util.Arrays.asList(context.getRequiredTestMethod().getParameterTypes()).contains(OwnCpu.class)) {
                throw new ExtensionConfigurationException(context.getRequiredTestMethod().getName()
                        + ": a test of an @OnOwnCpu class takes an OwnCpu and starts its processes on it (taskset)");
            }
        }

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == OwnCpu.class;
        }

        @Override
        public OwnCpu resolveParameter(ParameterContext parameter, ExtensionContext context) {
            OwnCpu cpu;
            try {
                cpu = FREE.take();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ParameterResolutionException("interrupted while waiting for a CPU of its own", e);
            }
            // given back once the test has ended (the store closes what it holds then), one entry per parameter
            AutoCloseable giveBack = () -> FREE.add(cpu);
            context.getStore(ExtensionContext.Namespace.create(Lender.class, context.getUniqueId())).put(parameter.getIndex(), giveBack);
            return cpu;
        }

        /** The CPUs this JVM may run on (its Cpus_allowed_list). */
        private static BitSet allowed() {
            BitSet cpus = CpuAffinity.allowed("self");
            if (cpus == null || cpus.isEmpty()) {
                throw new IllegalStateException("/proc/self/status names no CPU this JVM may run on: the @OnOwnCpu tests need Linux's");
            }
            return cpus;
        }
    }
}
