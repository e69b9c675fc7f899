package dev.latencylab.contract;

import java.time.Duration;

/** What both targets do on {@code /db/{latency}}: wait that long inside PostgreSQL, through their stack's own pool. */
public final class Database {

    /** The name problems and health give the database. */
    public static final String DEPENDENCY = "database";

    /**
     * The wait happens in the database, on a pooled connection: {@code pg_sleep} takes seconds. A named parameter,
     * which JdbcClient and DatabaseClient both bind.
     */
    public static final String SLEEP_SQL = "SELECT pg_sleep(:seconds)";

    public static final String SECONDS = "seconds";

    private Database() {
    }

    public static double seconds(Duration wait) {
        return wait.toMillis() / 1000.0;
    }
}
