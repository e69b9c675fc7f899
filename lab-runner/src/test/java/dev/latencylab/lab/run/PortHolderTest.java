package dev.latencylab.lab.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;

class PortHolderTest {

    /** A port this process listens on: the refusal names this process; a free port has no holder. */
    @Test
    void aTakenPortNamesTheProcessThatHoldsIt() throws IOException {
        int port = FreePorts.port();
        assertThat(PortHolder.of(port)).isEmpty();
        try (ServerSocket taken = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(PortHolder.of(port)).hasValueSatisfying(h -> assertThat(h).startsWith("pid " + ProcessHandle.current().pid() + ": "));
            assertThatThrownBy(() -> TargetProcess.requireFreePort(port)).hasMessageStartingWith(
                    "port " + port + " is in use by another process (pid " + ProcessHandle.current().pid() + ": ").hasMessageEndingWith(
                            "): stop it, or choose other ports");
        }
    }
}
