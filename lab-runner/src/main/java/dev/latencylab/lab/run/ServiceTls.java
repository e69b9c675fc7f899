package dev.latencylab.lab.run;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.latencylab.load.tls.TlsTrust;

/**
 * How the load reaches a service of the user's at an https URL: the certificates it trusts (--ca-cert FILE, else the
 * system's; --insecure: none checked) and whether it speaks HTTP/2 (--http2, chosen by ALPN). Kept by a sweep's file.
 *
 * @param caCert   the PEM file of the certificates trusted, absolute; null: the system's trust store
 * @param insecure no certificate checked, only when the user says so
 * @param http2    HTTP/2 instead of HTTP/1.1
 */
public record ServiceTls(String caCert, boolean insecure, boolean http2) {

    /** An http URL's: none of it. */
    public static final ServiceTls NONE = new ServiceTls(null, false, false);

    /**
     * The same, checked against the URL's scheme.
     *
     * @throws IllegalArgumentException naming the option that does not go with it, and why
     */
    public ServiceTls checkedFor(String url, String scheme) {
        if (!"https".equals(scheme) && !equals(NONE)) {
            throw new IllegalArgumentException("%s with --url %s: it goes with an https URL (TLS); give https://... or leave it out"
                    .formatted(caCert != null ? "--ca-cert" : insecure ? "--insecure" : "--http2", url));
        }
        if (caCert != null && insecure) {
            throw new IllegalArgumentException("--ca-cert and --insecure: trust the certificates of the file, or check none; give one of them");
        }
        if (caCert != null && !Files.isRegularFile(Path.of(caCert))) {
            throw new IllegalArgumentException("--ca-cert %s: no such file; give the PEM file of the service's certificate, or of the authority that signed it"
                    .formatted(caCert));
        }
        if (caCert != null) {
            // read now, not when the first run begins: a sweep refused then had made its folder
            TrustStores.certificates(Path.of(caCert));
        }
        return this;
    }

    /** The load's trust (a trust store of --ca-cert's certificates, written for this process). */
    public TlsTrust trust() {
        return insecure ? TlsTrust.insecureTrust() : caCert != null ? TrustStores.ofCertificates(Path.of(caCert)) : TlsTrust.system();
    }
}
