package dev.latencylab.lab;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

import dev.latencylab.load.result.ResultFile;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;

/**
 * The JSON Schema of result.json as load-contract's jar carries it (built from docs/result.schema.json, its published
 * copy), applied to a file.
 */
public final class ResultSchema {

    private static final JsonSchema SCHEMA = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
            .getSchema(ResultFile.class.getResourceAsStream("result.schema.json"));

    private ResultSchema() {
    }

    /** What in the file the schema does not accept, one line each; empty when it validates. */
    public static List<String> problems(Path resultFile) {
        try {
            return SCHEMA.validate(new ObjectMapper().readTree(resultFile.toFile())).stream().map(ValidationMessage::toString).toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
