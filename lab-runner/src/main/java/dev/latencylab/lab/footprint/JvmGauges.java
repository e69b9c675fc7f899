package dev.latencylab.lab.footprint;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;

import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import com.sun.tools.attach.VirtualMachine;

import dev.latencylab.load.result.Json;
import dev.latencylab.lab.run.TargetProcess.TargetFailedException;

/**
 * What a JVM says of its own memory and threads at a reading: live platform threads, heap used and committed,
 * non-heap used, NIO direct buffers. Read from a lab target's actuator, or from any JVM through its management agent.
 */
record JvmGauges(long liveThreads, long heapUsedBytes, long heapCommittedBytes, long nonHeapUsedBytes, long directBufferBytes) {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** From a lab target's actuator (Micrometer's JVM gauges) at metricsUrl. */
    static JvmGauges ofActuator(String metricsUrl) {
        String metrics = metricsUrl + "/actuator/metrics/";
        return new JvmGauges(metric(metrics + "jvm.threads.live"), metric(metrics + "jvm.memory.used?tag=area:heap"),
                metric(metrics + "jvm.memory.committed?tag=area:heap"), metric(metrics + "jvm.memory.used?tag=area:nonheap"),
                metric(metrics + "jvm.buffer.memory.used?tag=id:direct"));
    }

    /** A gauge of the target's actuator, e.g. hello.waiting: the requests waiting out their latency now. */
    static long metric(String url) {
        try {
            dev.latencylab.load.metrics.BoundedAnswer r = dev.latencylab.load.metrics.BoundedAnswer.get(HTTP,
                    HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(), Duration.ofSeconds(10));
            if (r.status() != 200) {
                throw new TargetFailedException(url + " answered " + r.status());
            }
            return Math.round(Json.MAPPER.readTree(r.body()).path("measurements").path(0).path("value").asDouble());
        }
        catch (IOException e) {
            throw new TargetFailedException(url + ": " + e.getMessage());
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TargetFailedException("interrupted");
        }
    }

    /**
     * A JVM's management agent, started in it through the attach API (as jcmd attaches) and connected to: the gauges of
     * a service that publishes none. Started once, right after the JVM is up, so that what the agent itself costs (a
     * few threads, its classes) is the same in every measurement and leaves the slopes alone.
     */
    static final class Agent implements AutoCloseable {

        private final JMXConnector connector;
        private final MBeanServerConnection server;

        private Agent(JMXConnector connector) throws IOException {
            this.connector = connector;
            this.server = connector.getMBeanServerConnection();
        }

        static Agent attach(long pid) {
            try {
                VirtualMachine vm = VirtualMachine.attach(String.valueOf(pid));
                String address;
                try {
                    address = vm.startLocalManagementAgent();
                }
                finally {
                    vm.detach();
                }
                return new Agent(JMXConnectorFactory.connect(new JMXServiceURL(address)));
            }
            catch (IOException | com.sun.tools.attach.AttachNotSupportedException e) {
                throw new TargetFailedException("cannot attach to pid %d for its JVM's gauges: %s".formatted(pid, e.getMessage()));
            }
        }

        JvmGauges read() {
            try {
                MemoryMXBean memory = ManagementFactory.newPlatformMXBeanProxy(server, ManagementFactory.MEMORY_MXBEAN_NAME, MemoryMXBean.class);
                ThreadMXBean threads = ManagementFactory.newPlatformMXBeanProxy(server, ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class);
                long direct = ManagementFactory.getPlatformMXBeans(server, BufferPoolMXBean.class).stream()
                        .filter(b -> b.getName().equals("direct")).mapToLong(BufferPoolMXBean::getMemoryUsed).sum();
                return new JvmGauges(threads.getThreadCount(), memory.getHeapMemoryUsage().getUsed(), memory.getHeapMemoryUsage().getCommitted(),
                        memory.getNonHeapMemoryUsage().getUsed(), direct);
            }
            catch (IOException | RuntimeException e) {
                throw new TargetFailedException("its management agent did not answer: " + e.getMessage());
            }
        }

        @Override
        public void close() {
            try {
                connector.close();
            }
            catch (IOException e) {
                // the JVM is about to be stopped: nothing left to release
            }
        }
    }
}
