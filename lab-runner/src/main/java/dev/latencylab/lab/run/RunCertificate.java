package dev.latencylab.lab.run;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.latencylab.load.tls.TlsTrust;

/**
 * The certificate the lab's targets serve TLS with: made by the JDK's keytool for this process (EC P-256, for localhost
 * and 127.0.0.1, valid 2 days), never kept: its key store lives in the process's own folder (TrustStores.RunFiles),
 * its password in the environment of the processes that need it, never on a command line. The load trusts this
 * certificate and nothing else.
 *
 * @param keyStore the server's PKCS12 key store (the key and its certificate)
 * @param password the key store's password, random for the run
 * @param trust    the trust store of the certificate alone, for the load
 */
public record RunCertificate(Path keyStore, String password, TlsTrust trust) {

    /** The environment variable a target reads the key store's password from (Spring Boot's server.ssl.key-store-password). */
    static final String PASSWORD_ENV = "SERVER_SSL_KEYSTOREPASSWORD";
    private static final String ALIAS = "latency-lab";
    private static RunCertificate made;

    /** This process's certificate, made at the first call. */
    public static synchronized RunCertificate get() {
        if (made == null) {
            made = make(TrustStores.RunFiles.folder());
        }
        return made;
    }

    private static RunCertificate make(Path folder) {
        byte[] random = new byte[18];
        new SecureRandom().nextBytes(random);
        String password = Base64.getUrlEncoder().withoutPadding().encodeToString(random);
        Path keyStore = folder.resolve("server.p12");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
                "-alias", ALIAS, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                "-validity", "2", "-storetype", TlsTrust.TYPE, "-keystore", keyStore.toString(), "-storepass:env", PASSWORD_ENV));
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().put(PASSWORD_ENV, password);
            Process keytool = builder.start();
            String said = new String(keytool.getInputStream().readAllBytes());
            if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0 || !Files.isRegularFile(keyStore)) {
                throw new IllegalStateException("keytool could not make the run's certificate: " + said.strip());
            }
            KeyStore keys = KeyStore.getInstance(TlsTrust.TYPE);
            try (InputStream in = Files.newInputStream(keyStore)) {
                keys.load(in, password.toCharArray());
            }
            return new RunCertificate(keyStore, password, TrustStores.write(List.of(keys.getCertificate(ALIAS)), folder.resolve("trust.p12")));
        }
        catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot make the run's certificate: " + e.getMessage(), e);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making the run's certificate", e);
        }
    }

    /** The Spring properties that serve it (the password: serverEnvironment). */
    public Map<String, String> serverProperties() {
        return Map.of(TargetProcess.KEY_STORE, "file:" + keyStore, "server.ssl.key-store-type", TlsTrust.TYPE);
    }

    /** Without its password: a record would print it. */
    @Override
    public String toString() {
        return "RunCertificate[" + keyStore + "]";
    }

    /** The environment that gives a target the key store's password. */
    public Map<String, String> serverEnvironment() {
        return Map.of(PASSWORD_ENV, password);
    }
}
