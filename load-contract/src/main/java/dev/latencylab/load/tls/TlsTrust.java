package dev.latencylab.load.tls;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Which servers' certificates the load trusts over HTTPS: those in a trust store (the run's own certificate, or the
 * user's --ca-cert), the system's, or none checked at all (insecure: only when the user says so). Carried as Gatling's
 * own settings (gatling.ssl.*), so that Gatling's client and the lab's checks (preflight, metrics, warm-up) trust the
 * same certificates; the lab's gatling.conf turns Gatling's default, trust everything, off.
 *
 * @param trustStore a PKCS12 file of trusted certificates; null: the system's trust store
 * @param password   its password (a trust store holds no secret: certificates only)
 * @param insecure   no certificate checked, no host name either
 */
public record TlsTrust(Path trustStore, String password, boolean insecure) {

    public static final String INSECURE = "gatling.ssl.useInsecureTrustManager";
    public static final String STORE_FILE = "gatling.ssl.trustStore.file";
    public static final String STORE_TYPE = "gatling.ssl.trustStore.type";
    public static final String STORE_PASSWORD = "gatling.ssl.trustStore.password";
    /** The type of every trust store the lab writes and reads. */
    public static final String TYPE = "PKCS12";

    /** The system's trust store: the JDK's certificate authorities. */
    public static TlsTrust system() {
        return new TlsTrust(null, null, false);
    }

    /** No certificate checked. */
    public static TlsTrust insecureTrust() {
        return new TlsTrust(null, null, true);
    }

    /** The trust these properties set (Gatling's names); the system's where they set none. */
    public static TlsTrust of(Properties p) {
        String file = p.getProperty(STORE_FILE, "");
        return new TlsTrust(file.isBlank() ? null : Path.of(file), file.isBlank() ? null : p.getProperty(STORE_PASSWORD, ""),
                Boolean.parseBoolean(p.getProperty(INSECURE)));
    }

    /** The trust this JVM was started with (-Dgatling.ssl.*). */
    public static TlsTrust ofThisJvm() {
        return of(System.getProperties());
    }

    /** Makes it this JVM's too (the runner's: its warm-up and checks trust what the load trusts). */
    public void useInThisJvm() {
        System.getProperties().remove(STORE_FILE);
        System.getProperties().putAll(gatlingProperties());
    }

    /** Gatling's settings for it, given to its JVM: the insecure switch always (off unless asked for). */
    public Map<String, String> gatlingProperties() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(INSECURE, String.valueOf(insecure));
        if (trustStore != null) {
            m.put(STORE_FILE, trustStore.toAbsolutePath().toString());
            m.put(STORE_TYPE, TYPE);
            m.put(STORE_PASSWORD, password);
        }
        return m;
    }

    /** As result.json and the pages say it: "insecure", "system" or "trust store" (the file is the run's, not kept). */
    public String id() {
        return insecure ? "insecure" : trustStore == null ? "system" : "trust store";
    }

    /** An HTTP/1.1 client of the JDK's trusting it: the lab's own requests (checks, metrics, warm-up) beside the load's. */
    public java.net.http.HttpClient httpClient(java.time.Duration connectTimeout) {
        return java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1).sslContext(sslContext())
                .connectTimeout(connectTimeout).build();
    }

    /** The JDK's TLS context for it (java.net.http's clients). */
    public SSLContext sslContext() {
        try {
            if (!insecure && trustStore == null) {
                return SSLContext.getDefault();
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, insecure ? new TrustManager[] {new TrustingAll()} : managers(), null);
            return context;
        }
        catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("the trust store %s cannot be read: %s".formatted(trustStore, e.getMessage()), e);
        }
    }

    private TrustManager[] managers() throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance(TYPE);
        try (InputStream in = Files.newInputStream(trustStore)) {
            store.load(in, password == null ? null : password.toCharArray());
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        return factory.getTrustManagers();
    }

    /** --insecure: every certificate, for every host (an extended manager, so that the JDK adds no host name check). */
    private static final class TrustingAll extends X509ExtendedTrustManager {

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
