package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.flow.ExitCode;

/**
 * A --ca-cert outside its dates (expired, or not valid yet) is refused through the command line before any load, its
 * dates said; each made by the JDK's keytool as a user's authority would be.
 */
class TrustAnchorDatesTest {

    @TempDir
    Path tmp;

    @Test
    void anExpiredOrNotYetValidCertificateIsRefusedWithItsDates() throws Exception {
        Path expired = certificate("expired", "-3y", 30);
        LabCommand.Finished old = LabCommand.inThisJvm("run", "--url", "https://127.0.0.1:" + Lab.freePort() + "/owners", "--ca-cert",
                expired.toString(), "--no-live");
        assertThat(old.exitCode()).as(old.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(old.output()).containsPattern("--ca-cert " + java.util.regex.Pattern.quote(expired.toString())
                + ": its certificate CN=expired expired \\(valid from [0-9]+ [A-Z][a-z]{2} [0-9]{4} [0-9:]+ UTC to [0-9]+ [A-Z][a-z]{2} [0-9]{4} [0-9:]+ UTC\\); "
                + "give a current one, or --insecure alone to check none").doesNotContain("Result file");

        Path early = certificate("early", "+1y", 30);
        LabCommand.Finished notYet = LabCommand.inThisJvm("run", "--url", "https://127.0.0.1:" + Lab.freePort() + "/owners", "--ca-cert",
                early.toString(), "--no-live");
        assertThat(notYet.exitCode()).as(notYet.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(notYet.output()).contains("its certificate CN=early is not valid yet (valid from ");
    }

    /** A self-signed certificate's PEM, valid for days from start (keytool's -startdate: -3y, +1y). */
    private Path certificate(String name, String start, int days) throws IOException, InterruptedException {
        Path store = tmp.resolve(name + ".p12");
        Path pem = tmp.resolve(name + ".pem");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        run(List.of(keytool, "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name, "-startdate", start,
                "-validity", String.valueOf(days), "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", "changeit"));
        run(List.of(keytool, "-exportcert", "-rfc", "-alias", name, "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", "changeit",
                "-file", pem.toString()));
        assertThat(pem).isRegularFile();
        return pem;
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(said).isZero();
    }

    @Test
    void aCurrentCertificateStillPasses() throws Exception {
        Path current = certificate("current", "-1d", 30);
        assertThat(Files.readString(current)).startsWith("-----BEGIN CERTIFICATE-----");
        // read and written as a trust store: no refusal
        assertThat(dev.latencylab.lab.run.TrustStores.ofCertificates(current).trustStore()).isRegularFile();
    }
}
