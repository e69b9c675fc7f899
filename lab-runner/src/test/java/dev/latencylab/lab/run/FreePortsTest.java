package dev.latencylab.lab.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

class FreePortsTest {

    /** Below the outgoing connections' range, the actuator's port too; free; never the same twice in a process. */
    @Test
    void portsAreFreeBelowTheOutgoingRangeAndNotHandedOutTwice() throws IOException {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            int port = FreePorts.port();
            assertThat(port).isGreaterThanOrEqualTo(FreePorts.LOWEST);
            assertThat(TargetProcess.managementPort(port)).isLessThan(FreePorts.ephemeralStart());
            assertThat(seen.add(port)).as("handed out once: %d", port).isTrue();
            try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress());
                    ServerSocket m = new ServerSocket(TargetProcess.managementPort(port), 1, InetAddress.getLoopbackAddress())) {
                assertThat(s.getLocalPort()).isEqualTo(port);
            }
        }
    }

    @Test
    void aPortTakenIsPassedOver() throws IOException {
        int port = FreePorts.port();
        try (ServerSocket held = new ServerSocket(port + 1, 1, InetAddress.getLoopbackAddress())) {
            // the next candidate in turn is port + 1, held here: the one after it is handed out instead
            assertThat(FreePorts.port()).isNotEqualTo(port + 1);
        }
    }

    /**
     * A port another lab process handed out is not handed out here while that process runs, though nothing listens on
     * it yet (its service starts seconds later, and binds its actuator port after its own); once it ended, it can be.
     * The other process is a JVM of this class's main.
     */
    @Test
    void aPortAnotherProcessHandedOutIsNotHandedOutHereUntilItEnds() throws Exception {
        Process other = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-cp", System.getProperty("java.class.path"),
                FreePortsTest.class.getName()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(other.getInputStream()))) {
            int theirs = Integer.parseInt(lines.readLine().trim());
            assertThat(FreePorts.free(theirs)).as("nothing listens on %d", theirs).isTrue();
            assertThat(FreePorts.reserve(theirs)).as("reserved by the other process").isFalse();
            assertThat(FreePorts.reserve(TargetProcess.managementPort(theirs))).as("its actuator port too").isFalse();
            other.getOutputStream().close(); // the other process ends
            assertThat(other.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(FreePorts.reserve(theirs)).as("reserved here once the other process ended").isTrue();
        }
        finally {
            other.destroyForcibly();
        }
    }

    /** The other process of the test above: hands out a port, says which, and holds it until its input ends. */
    public static void main(String[] args) throws IOException {
        System.out.println(FreePorts.port());
        System.out.flush();
        System.in.transferTo(java.io.OutputStream.nullOutputStream());
    }

    /** A machine whose outgoing range starts too low to leave room below it (as if at 10,500): the kernel's choice. */
    @Test
    void belowALowOutgoingRangeTheKernelChoosesAndTheActuatorPortIsFreeToo() {
        int port = FreePorts.port(10_500);
        assertThat(port).as("from the kernel's own range, not below it").isGreaterThanOrEqualTo(FreePorts.ephemeralStart());
        assertThat(TargetProcess.managementPort(port)).isLessThan(65_536);
        assertThat(FreePorts.free(TargetProcess.managementPort(port))).isTrue();
    }
}
