package dev.latencylab.lab.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.latencylab.load.tls.TlsTrust;

/**
 * Trust stores the load reads (Gatling and the lab's checks take a store, not PEM): written from certificates into a
 * folder of this process's own, deleted when it exits. A trust store holds certificates only, no secret, so its
 * password is a constant.
 */
public final class TrustStores {

    static final String PASSWORD = "latency-lab";

    private TrustStores() {
    }

    /**
     * The trust of --ca-cert FILE: every certificate in that PEM (or DER) file.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    public static TlsTrust ofCertificates(Path pem) {
        return write(certificates(pem), RunFiles.folder().resolve("ca-cert.p12"));
    }

    /**
     * The certificates of --ca-cert FILE, each within its dates.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it
     */
    static List<Certificate> certificates(Path pem) {
        List<Certificate> certificates = new ArrayList<>();
        try (InputStream in = Files.newInputStream(pem)) {
            certificates.addAll(CertificateFactory.getInstance("X.509").generateCertificates(in));
        }
        catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("--ca-cert %s: not a certificate file that can be read (%s); give the PEM file of the "
                    .formatted(pem, e.getMessage()) + "certificate, or of the authority that signed it");
        }
        if (certificates.isEmpty()) {
            throw new IllegalArgumentException("--ca-cert %s: holds no certificate; give the PEM file of the certificate, or of the authority that signed it"
                    .formatted(pem));
        }
        for (Certificate c : certificates) {
            if (c instanceof X509Certificate x) {
                current(pem, x, Instant.now());
            }
        }
        return certificates;
    }

    /**
     * A trust anchor outside its dates is refused: Java would refuse every connection it signs, each as a KO, and a run
     * of handshake failures measures nothing.
     */
    static void current(Path pem, X509Certificate x, Instant now) {
        Instant from = x.getNotBefore().toInstant();
        Instant to = x.getNotAfter().toInstant();
        String dates = "valid from %s to %s".formatted(DAY.format(from), DAY.format(to));
        if (now.isAfter(to)) {
            throw new IllegalArgumentException("--ca-cert %s: its certificate %s expired (%s); give a current one, or --insecure alone to check none"
                    .formatted(pem, x.getSubjectX500Principal().getName(), dates));
        }
        if (now.isBefore(from)) {
            throw new IllegalArgumentException("--ca-cert %s: its certificate %s is not valid yet (%s); give a current one, or --insecure alone to check none"
                    .formatted(pem, x.getSubjectX500Principal().getName(), dates));
        }
    }

    private static final java.time.format.DateTimeFormatter DAY = java.time.format.DateTimeFormatter.ofPattern("d MMM yyyy HH:mm 'UTC'",
            java.util.Locale.ENGLISH).withZone(java.time.ZoneOffset.UTC);

    /** A trust store of these certificates at that path. */
    static TlsTrust write(List<Certificate> certificates, Path store) {
        try {
            KeyStore keys = KeyStore.getInstance(TlsTrust.TYPE);
            keys.load(null, null);
            for (int i = 0; i < certificates.size(); i++) {
                keys.setCertificateEntry("trusted-" + i, certificates.get(i));
            }
            try (OutputStream out = Files.newOutputStream(store)) {
                keys.store(out, PASSWORD.toCharArray());
            }
            return new TlsTrust(store, PASSWORD, false);
        }
        catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot write the trust store " + store + ": " + e.getMessage(), e);
        }
    }

    /** This process's folder of TLS files: made once, readable by its user alone, removed when the process ends. */
    static final class RunFiles {

        private static Path folder;

        private RunFiles() {
        }

        static synchronized Path folder() {
            if (folder == null) {
                try {
                    folder = Files.createTempDirectory("latency-lab-tls-",
                            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
                }
                catch (IOException e) {
                    throw new java.io.UncheckedIOException("cannot make a folder for the run's certificate: " + e.getMessage(), e);
                }
                Path made = folder;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        dev.latencylab.lab.layout.Folders.deleteTree(made);
                    }
                    catch (IOException e) {
                        System.err.println("latency-lab: the run's TLS files in " + made + " are left: " + e.getMessage());
                    }
                }));
            }
            return folder;
        }
    }
}
