package dev.latencylab.lab.live;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import dev.latencylab.load.live.LiveSample;
import dev.latencylab.load.result.Json;

/**
 * Reads the lines the load's JVM appends to live.jsonl as they come: each call gives the whole lines written since the
 * last (a line still being written waits for the next call). A file not there yet gives nothing.
 */
final class LiveFeedReader {

    private final Path file;
    private long offset;
    private final StringBuilder partial = new StringBuilder();

    LiveFeedReader(Path file) {
        this.file = file;
    }

    List<LiveSample> readNew() throws IOException {
        List<LiveSample> read = new ArrayList<>();
        if (!Files.isRegularFile(file)) {
            return read;
        }
        byte[] bytes;
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            long length = f.length();
            if (length <= offset) {
                return read;
            }
            bytes = new byte[(int) (length - offset)];
            f.seek(offset);
            f.readFully(bytes);
            offset = length;
        }
        partial.append(new String(bytes, StandardCharsets.UTF_8));
        int end;
        while ((end = partial.indexOf("\n")) >= 0) {
            String line = partial.substring(0, end).strip();
            partial.delete(0, end + 1);
            if (!line.isEmpty()) {
                read.add(Json.MAPPER.readValue(line, LiveSample.class));
            }
        }
        return read;
    }
}
