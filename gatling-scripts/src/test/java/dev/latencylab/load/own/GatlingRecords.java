package dev.latencylab.load.own;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.gatling.charts.stats.LogFileParser;
import io.gatling.core.stats.writer.RecordHeader;

/**
 * Gatling's own record of a run, its binary simulation.log, read with Gatling's own reader (its LogFileParser, whose
 * primitives read the values as Gatling wrote them): the users' starts and ends and every request, by name, with its
 * start, end, status and Gatling's message. The layout is that of the Gatling on this classpath, which wrote the file.
 */
final class GatlingRecords {

    private GatlingRecords() {
    }

    /** What a read hands on, record by record, in the file's order; times in ms since the epoch. */
    interface Visitor {

        void user(boolean start, long at);

        /** @param name the request's name, inside its groups' names ("group / name") where it was in groups */
        void request(String name, long start, long end, boolean ok, String message);
    }

    /** The simulation.log of the one run under Gatling's results folder, if it left one. */
    static Optional<Path> logIn(Path resultsFolder) {
        if (!Files.isDirectory(resultsFolder)) {
            return Optional.empty();
        }
        try (Stream<Path> runs = Files.list(resultsFolder)) {
            return runs.map(run -> run.resolve("simulation.log")).filter(Files::isRegularFile)
                    .max(Comparator.comparing(p -> p.toFile().lastModified()));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads every record of the log into the visitor.
     *
     * @return the simulation's class name as Gatling recorded it; truncated: true when the file ended inside a record
     */
    static Read read(Path log, Visitor into) {
        try (Parser parser = new Parser(log, into)) {
            return parser.parse();
        }
    }

    /** The simulation's class name, and whether the log ended inside a record (a run cut short). */
    record Read(String simulation, boolean truncated) {
    }

    private static final class Parser extends LogFileParser<Read> {

        private static final byte RUN = RecordHeader.Run$.MODULE$.value();
        private static final byte USER = RecordHeader.User$.MODULE$.value();
        private static final byte REQUEST = RecordHeader.Request$.MODULE$.value();
        private static final byte GROUP = RecordHeader.Group$.MODULE$.value();
        private static final byte ERROR = RecordHeader.Error$.MODULE$.value();

        private final Visitor into;
        private final Path log;

        Parser(Path log, Visitor into) {
            super(log.toFile());
            this.log = log;
            this.into = into;
        }

        @Override
        public Read parse() {
            if (readByte() != RUN) {
                throw new IllegalStateException(log + " is not a Gatling simulation.log: it does not begin with its run record");
            }
            readString(); // Gatling's version: the one on this classpath wrote it
            String simulation = readString();
            long runStart = readLong();
            readString(); // the run's description
            for (int i = readInt(); i > 0; i--) {
                readSanitizedString(); // a scenario's name
            }
            for (int i = readInt(); i > 0; i--) {
                readByteArray(); // an assertion
            }
            try {
                for (int header = read(); header != -1; header = read()) {
                    record((byte) header, runStart);
                }
                return new Read(simulation, false);
            }
            catch (Exception e) {
                if (e instanceof EOFException) {
                    return new Read(simulation, true); // a run cut short: what it recorded is read
                }
                throw e;
            }
        }

        private void record(byte header, long runStart) {
            if (header == USER) {
                readInt(); // its scenario
                boolean start = readBoolean();
                into.user(start, runStart + readInt());
            }
            else if (header == REQUEST) {
                List<String> path = new ArrayList<>();
                for (int i = readInt(); i > 0; i--) {
                    path.add(readCachedSanitizedString());
                }
                path.add(readCachedSanitizedString());
                long start = runStart + readInt();
                long end = runStart + readInt();
                boolean ok = readBoolean();
                String message = readCachedSanitizedString().strip();
                into.request(String.join(" / ", path), start, end, ok, message);
            }
            else if (header == GROUP) {
                for (int i = readInt(); i > 0; i--) {
                    readCachedSanitizedString();
                }
                readInt(); // start
                readInt(); // end
                readInt(); // cumulated response time
                readBoolean(); // status
            }
            else if (header == ERROR) {
                readCachedSanitizedString(); // the message: each failed request carries its own
                readInt(); // when
            }
            else {
                throw new IllegalStateException("%s holds a record Gatling's reader does not know (header %d)".formatted(log, header));
            }
        }
    }
}
