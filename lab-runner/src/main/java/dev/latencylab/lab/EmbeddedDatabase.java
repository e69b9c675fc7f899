package dev.latencylab.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The db targets' PostgreSQL: a real server from zonky's Maven-packaged distribution, on a free loopback port with
 * its data in a temporary folder, fresh for each run and stopped after it. (zonky, not the Debian package or a
 * server of our own: a fresh clone needs nothing but the JDK.)
 */
final class EmbeddedDatabase implements AutoCloseable {

    private final EmbeddedPostgres postgres;

    private EmbeddedDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /**
     * @param log            where the server writes (appended); a signal that ends the lab ends the server with it
     *                       (shutdown hook)
     * @param maxConnections PostgreSQL's max_connections, or 0 for zonky's default
     */
    static EmbeddedDatabase start(Path log, int maxConnections) {
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder().setRegisterShutdownHook(true)
                    .setOutputRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .setErrorRedirector(ProcessBuilder.Redirect.appendTo(log.toFile()));
            if (maxConnections > 0) {
                builder.setServerConfig("max_connections", String.valueOf(maxConnections));
            }
            return new EmbeddedDatabase(builder.start());
        }
        catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL for a db target", e);
        }
    }

    int port() {
        return postgres.getPort();
    }

    /** Port, version and max_connections (a bound of its own on every pool), for the run's record. */
    Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("server", "embedded (zonky)");
        d.put("port", port());
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            d.put("version", show(s, "server_version"));
            d.put("maxConnections", Integer.parseInt(show(s, "max_connections")));
        }
        catch (SQLException e) {
            throw new IllegalStateException("the embedded PostgreSQL does not answer: " + e.getMessage(), e);
        }
        return d;
    }

    private static String show(Statement s, String setting) throws SQLException {
        try (ResultSet r = s.executeQuery("SHOW " + setting)) {
            r.next();
            return r.getString(1);
        }
    }

    @Override
    public void close() {
        try {
            postgres.close();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
