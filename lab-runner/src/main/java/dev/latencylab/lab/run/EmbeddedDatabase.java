package dev.latencylab.lab.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The db targets' PostgreSQL: a real server from zonky's Maven-packaged distribution, on a free loopback port with
 * its data in a temporary folder, fresh for each run and stopped after it. (zonky, not the Debian package or a
 * server of our own: a fresh clone needs nothing but the JDK.)
 */
final class EmbeddedDatabase implements AutoCloseable {

    private final EmbeddedPostgres postgres;
    /** The postmaster's pid and data folder, read once at start (the watchdog and the run's record use them). */
    private final long pid;
    private final String dataDirectory;
    /** Stops the server and removes its data if this runner dies by SIGKILL (see {@link #watchdog}). */
    private final Process watchdog;

    private EmbeddedDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
        this.pid = postmasterPid();
        this.dataDirectory = show("data_directory");
        this.watchdog = watchdog(pid, dataDirectory);
    }

    /**
     * A shell child of this runner that waits for it to end: a runner killed by SIGKILL cannot stop PostgreSQL (zonky's
     * shutdown hook never runs), so the shell, left behind and re-parented, stops the server (fast shutdown) and removes
     * its data folder. A normal close ends the shell first.
     */
    private static Process watchdog(long postmaster, String dataDirectory) {
        String script = "while kill -0 \"$0\" 2>/dev/null; do sleep 1; done; kill -INT \"$1\" 2>/dev/null; "
                + "while kill -0 \"$1\" 2>/dev/null; do sleep 0.2; done; rm -rf \"$2\"";
        try {
            return new ProcessBuilder("sh", "-c", script, String.valueOf(ProcessHandle.current().pid()), String.valueOf(postmaster),
                    dataDirectory).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
        }
        catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL's watchdog", e);
        }
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
            EmbeddedPostgres postgres = builder.start();
            try {
                return new EmbeddedDatabase(postgres);
            }
            catch (RuntimeException e) {
                postgres.close();
                throw e;
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL for a db target", e);
        }
    }

    int port() {
        return postgres.getPort();
    }

    /**
     * The database as a run's record holds it: port, postmaster pid, version and max_connections (a bound of its own
     * on every pool). pid and dataDirectory: null in runs recorded before they were.
     */
    public record Described(String server, int port, @JsonInclude(JsonInclude.Include.NON_NULL) Long pid, String version, int maxConnections,
            @JsonInclude(JsonInclude.Include.NON_NULL) String dataDirectory) {
    }

    Described describe() {
        return new Described("embedded (zonky)", port(), pid, show("server_version"), Integer.parseInt(show("max_connections")),
                dataDirectory);
    }

    /** The postmaster's pid: the parent of a backend serving this connection. */
    private long postmasterPid() {
        try (Connection c = postgres.getPostgresDatabase().getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT pg_backend_pid()")) {
            r.next();
            long backend = r.getLong(1);
            return ProcessHandle.of(backend).flatMap(ProcessHandle::parent).map(ProcessHandle::pid)
                    .orElseThrow(() -> new IllegalStateException("the embedded PostgreSQL's backend " + backend + " has no parent"));
        }
        catch (SQLException e) {
            throw new IllegalStateException("the embedded PostgreSQL does not answer: " + e.getMessage(), e);
        }
    }

    private String show(String setting) {
        try (Connection c = postgres.getPostgresDatabase().getConnection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SHOW " + setting)) {
            r.next();
            return r.getString(1);
        }
        catch (SQLException e) {
            throw new IllegalStateException("the embedded PostgreSQL does not answer: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        watchdog.destroy();
        try {
            postgres.close();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
