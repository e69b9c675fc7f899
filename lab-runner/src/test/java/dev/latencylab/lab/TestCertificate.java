package dev.latencylab.lab;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Base64;

import dev.latencylab.lab.run.RunCertificate;
import dev.latencylab.load.tls.TlsTrust;

/**
 * A certificate for a service of the user's over HTTPS in a test, as a user has one: its certificate and its key in PEM
 * files, which Spring Boot serves without a password (server.ssl.certificate, server.ssl.certificate-private-key). Made
 * from this JVM's run certificate (localhost and 127.0.0.1), so that the test's service and the lab's targets differ
 * in nothing but who holds the key.
 *
 * @param certificate the PEM file the load is told to trust (--ca-cert)
 * @param key         the PEM file of its private key, for the service alone
 */
record TestCertificate(Path certificate, Path key) {

    static TestCertificate in(Path dir) throws IOException, GeneralSecurityException {
        RunCertificate made = RunCertificate.get();
        KeyStore keys = KeyStore.getInstance(TlsTrust.TYPE);
        try (InputStream in = Files.newInputStream(made.keyStore())) {
            keys.load(in, made.password().toCharArray());
        }
        String alias = keys.aliases().nextElement();
        Path certificate = dir.resolve("service-cert.pem");
        Path key = dir.resolve("service-key.pem");
        Files.writeString(certificate, pem("CERTIFICATE", keys.getCertificate(alias).getEncoded()));
        Files.writeString(key, pem("PRIVATE KEY", keys.getKey(alias, made.password().toCharArray()).getEncoded()));
        return new TestCertificate(certificate, key);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    /** The jar arguments that make a Spring Boot service serve it: HTTP/2 too when asked. */
    java.util.List<String> jarArgs(boolean http2) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--jar-arg=--server.ssl.certificate=" + certificate,
                "--jar-arg=--server.ssl.certificate-private-key=" + key));
        if (http2) {
            args.add("--jar-arg=--server.http2.enabled=true");
        }
        return args;
    }
}
