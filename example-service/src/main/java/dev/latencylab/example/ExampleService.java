package dev.latencylab.example;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A service of a user's, as the lab meets one: Spring MVC on Tomcat, HikariCP on PostgreSQL, an actuator with
 * Micrometer's Prometheus registry on the service's own port. Without spring.datasource.url it starts a PostgreSQL of
 * its own (zonky's embedded one) and stops it after itself, so that java -jar is all it takes.
 */
@SpringBootApplication
public class ExampleService {

    static final String DATABASE_URL = "spring.datasource.url";

    public static void main(String[] args) throws IOException {
        List<String> all = new ArrayList<>(List.of(args));
        // its own shutdown hook off: ours stops it after the service, not beside it
        EmbeddedPostgres database = databaseGiven(args) ? null : EmbeddedPostgres.builder().setRegisterShutdownHook(false).start();
        if (database != null) {
            all.add("--" + DATABASE_URL + "=" + database.getJdbcUrl("postgres", "postgres"));
        }
        SpringApplication app = new SpringApplication(ExampleService.class);
        // one hook, in order: the service stops (its pool closes its connections), then its database
        app.setRegisterShutdownHook(false);
        ConfigurableApplicationContext context;
        try {
            context = app.run(all.toArray(String[]::new));
        }
        catch (RuntimeException e) {
            if (database != null) {
                database.close(); // no PostgreSQL left behind by a service that did not start
            }
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            context.close();
            if (database != null) {
                try {
                    database.close();
                }
                catch (IOException e) {
                    System.err.println("example-service: its PostgreSQL did not stop: " + e.getMessage());
                }
            }
        }, "example-service-shutdown"));
    }

    /** Whether a database was given, as Spring Boot reads one: an argument, a system property or the environment. */
    static boolean databaseGiven(String[] args) {
        return List.of(args).stream().anyMatch(a -> a.startsWith("--" + DATABASE_URL + "=")) || System.getProperty(DATABASE_URL) != null
                || System.getenv("SPRING_DATASOURCE_URL") != null;
    }
}
