package dev.latencylab.example;

import java.time.LocalDate;
import java.util.List;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * Owners and their visits, from PostgreSQL through HikariCP. A search is one quick query, and so is adding an owner
 * (POST /owners, JSON); an owner's visits are read in
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

    /** A new owner as a client posts one: every field is needed. */
    public record NewOwner(String firstName, String lastName, String city) {
    }

    @PostMapping("/owners")
    @ResponseStatus(HttpStatus.CREATED)
    public Owner add(@RequestBody NewOwner owner) {
        if (owner.firstName() == null || owner.lastName() == null || owner.city() == null) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "an owner needs firstName, lastName and city");
        }
        long id = jdbc.sql("INSERT INTO owners (id, first_name, last_name, city) VALUES (nextval('owner_ids'), :first, :last, :city) RETURNING id")
                .param("first", owner.firstName()).param("last", owner.lastName()).param("city", owner.city()).query(Long.class).single();
        return new Owner(id, owner.firstName(), owner.lastName(), owner.city());
    }

    @GetMapping("/owners/{id}/visits")
    @Transactional(readOnly = true)
    public List<Visit> visits(@PathVariable long id) {
        jdbc.sql("SELECT pg_sleep(:seconds)").param("seconds", visitsQuerySeconds).query((row, i) -> i).list();
        return jdbc.sql("SELECT visit_date AS date, description FROM visits WHERE owner_id = :id ORDER BY visit_date")
                .param("id", id).query(Visit.class).list();
    }
}
