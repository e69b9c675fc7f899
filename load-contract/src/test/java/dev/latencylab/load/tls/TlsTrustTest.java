package dev.latencylab.load.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.Properties;

import org.junit.jupiter.api.Test;

/** The load's trust as Gatling's settings carry it: the same trust read back, each kind named, a missing store said. */
class TlsTrustTest {

    private static TlsTrust readBack(TlsTrust trust) {
        Properties p = new Properties();
        p.putAll(trust.gatlingProperties());
        return TlsTrust.of(p);
    }

    @Test
    void gatlingsSettingsCarryEachTrustAndTurnTrustingAllOffUnlessAsked() {
        TlsTrust store = new TlsTrust(Path.of("/tmp/trust.p12").toAbsolutePath(), "latency-lab", false);
        assertThat(store.gatlingProperties()).containsEntry(TlsTrust.INSECURE, "false").containsEntry(TlsTrust.STORE_FILE, "/tmp/trust.p12")
                .containsEntry(TlsTrust.STORE_TYPE, "PKCS12");
        assertThat(readBack(store)).isEqualTo(store);
        assertThat(TlsTrust.system().gatlingProperties()).as("Gatling's default trusts all: off").containsOnlyKeys(TlsTrust.INSECURE)
                .containsEntry(TlsTrust.INSECURE, "false");
        assertThat(readBack(TlsTrust.insecureTrust()).insecure()).isTrue();
        assertThat(store.id()).isEqualTo("trust store");
        assertThat(TlsTrust.system().id()).isEqualTo("system");
        assertThat(TlsTrust.insecureTrust().id()).isEqualTo("insecure");
        assertThat(TlsTrust.of(new Properties())).as("none said: the system's").isEqualTo(TlsTrust.system());
    }

    @Test
    void aTrustStoreThatCannotBeReadIsNamed() {
        assertThatThrownBy(() -> new TlsTrust(Path.of("/nonexistent/trust.p12"), "x", false).sslContext())
                .hasMessageStartingWith("the trust store /nonexistent/trust.p12 cannot be read");
        assertThat(TlsTrust.insecureTrust().sslContext().getProtocol()).isEqualTo("TLS");
    }
}
