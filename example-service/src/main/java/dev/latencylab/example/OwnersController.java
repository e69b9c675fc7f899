package dev.latencylab.example;

import java.time.LocalDate;
import java.util.List;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Owners and their visits, from PostgreSQL through HikariCP. A search is one quick query; an owner's visits are read in
 * a transaction that first waits example.visits.query-ms in PostgreSQL (pg_sleep stands for a slow query): each such
 * request holds one of the pool's connections for a known time, so the pool bounds how many are served a second.
 */
@RestController
public class OwnersController {

    public record Owner(long id, String firstName, String lastName, String city) {
    }

    public record Visit(LocalDate date, String description) {
    }

    private final JdbcClient jdbc;
    private final double visitsQuerySeconds;

    OwnersController(JdbcClient jdbc, @Value("${example.visits.query-ms}") long visitsQueryMs) {
        this.jdbc = jdbc;
        this.visitsQuerySeconds = visitsQueryMs / 1000.0;
    }

    @GetMapping("/owners")
    public List<Owner> owners(@RequestParam(defaultValue = "") String lastName) {
        return jdbc.sql("SELECT id, first_name, last_name, city FROM owners WHERE last_name LIKE :prefix ORDER BY id")
                .param("prefix", lastName.replace("%", "") + "%").query(Owner.class).list();
    }

    @GetMapping("/owners/{id}/visits")
    @Transactional(readOnly = true)
    public List<Visit> visits(@PathVariable long id) {
        jdbc.sql("SELECT pg_sleep(:seconds)").param("seconds", visitsQuerySeconds).query((row, i) -> i).list();
        return jdbc.sql("SELECT visit_date AS date, description FROM visits WHERE owner_id = :id ORDER BY visit_date")
                .param("id", id).query(Visit.class).list();
    }
}
