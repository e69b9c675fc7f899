package dev.latencylab.load.result;

import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The one JSON mapper of the suite's files (result.json here; point.json, sweep.json and capacity.json in the runner):
 * indented, fields in the order their records declare them (a schema's order, not the alphabet).
 */
public final class Json {

    public static final JsonMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY).build();

    /** The same mapper writing a value on one line (a line of a JSON-lines file). */
    public static final ObjectWriter LINE = MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT);

    private Json() {
    }
}
