package dev.latencylab.lab.run;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

import dev.latencylab.load.settings.SimulationSettings;

/**
 * The headers every request to a service carries, by name, with their values while the command runs. A file keeps
 * their names only (sweep.json, capacity.json): a value (a token, a password) is never written, so a sweep resumed
 * needs them given again, and a header named in a file but not given has no value here.
 */
public record SecretHeaders(Map<String, String> values) {

    public static final SecretHeaders NONE = new SecretHeaders(Map.of());

    public SecretHeaders {
        values = Collections.unmodifiableMap(new TreeMap<>(values));
    }

    /** As a file keeps them: their names. */
    @JsonValue
    public List<String> names() {
        return new ArrayList<>(values.keySet());
    }

    /** As a file kept them: names without values. */
    @JsonCreator
    static SecretHeaders named(List<String> names) {
        Map<String, String> values = new TreeMap<>();
        names.forEach(n -> values.put(n, ""));
        return new SecretHeaders(values);
    }

    /**
     * The simulation's properties of these headers.
     *
     * @throws IllegalArgumentException for a header without its value (named in a file, not given again)
     */
    public Map<String, String> properties() {
        Map<String, String> m = new TreeMap<>();
        values.forEach((name, value) -> {
            if (value.isEmpty()) {
                throw new IllegalArgumentException(("header %s: its value is not kept in the sweep's or search's file; give it again, "
                        + "--header '%s: ...' or --header @FILE (a file of NAME: VALUE lines)").formatted(name, name));
            }
            m.put(SimulationSettings.HEADER_PREFIX + name, value);
        });
        return m;
    }
}
