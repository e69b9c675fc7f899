package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.latencylab.lab.footprint.Footprint;
import dev.latencylab.lab.footprint.Footprint.Measurement;
import dev.latencylab.lab.footprint.Footprint.Mode;
import dev.latencylab.lab.layout.FootprintFolder;
import dev.latencylab.lab.flow.ExitCode;

/**
 * ./lab footprint through the real command line, on real targets: a pool of platform threads holds a thread for each
 * request in flight and none for an idle connection; WebFlux holds neither; every connection shows as the target's
 * socket; the page opens with the verdict the console printed, which ./lab report rebuilds from footprint.json alone.
 */
class FootprintIT {

    @TempDir
    Path tmp;

    @Test
    void aThreadPerRequestInFlightShowsAndNonePerIdleConnection() throws Exception {
        LabCommand.Finished c = LabCommand.run(tmp.resolve("footprint.console"), "footprint", "--targets", "mvc-t100,webflux",
                "--counts", "0,100", "--repeats", "1", "--hold-seconds", "20", "--settle-seconds", "0", "--results", tmp.toString(), "--name", "it");
        assertThat(c.exitCode()).as(c.output()).isZero();
        FootprintFolder folder = new FootprintFolder(tmp.resolve("it"));
        Footprint f = Footprint.read(folder.dir());
        assertThat(f.measurements()).as(c.output()).hasSize(8).allMatch(Measurement::done);
        assertThat(f.measurements()).filteredOn(m -> m.count() == 100).allMatch(m -> m.held() == 100);

        // the pool fills: 100 busy threads, less those it had at 0 (its 10 spare, and any the warm-up's requests left)
        assertThat(grown(f, "mvc-t100", Mode.IN_FLIGHT, MemoryOf.THREADS)).as("a pool thread for each request in flight").isBetween(70L, 100L);
        assertThat(grown(f, "mvc-t100", Mode.IDLE, MemoryOf.THREADS)).as("no thread for an idle connection").isLessThan(10);
        assertThat(grown(f, "webflux", Mode.IN_FLIGHT, MemoryOf.THREADS)).as("WebFlux: no thread per request").isLessThan(10);
        for (String target : List.of("mvc-t100", "webflux")) {
            for (Mode mode : Mode.values()) {
                // each connection held is one of its sockets, beside its two listeners (server and actuator); what
                // else it has open (the actuator's keep-alive connections, a warm-up connection not yet closed) is few
                assertThat(at(f, target, mode, 100, MemoryOf.SOCKETS)).as("%s %s: the target's sockets", target, mode).isGreaterThanOrEqualTo(102);
                assertThat(grown(f, target, mode, MemoryOf.SOCKETS)).as("%s %s: sockets beside the connections", target, mode).isBetween(90L, 105L);
            }
        }

        String page = Files.readString(folder.page());
        assertThat(page.indexOf("Per request in flight")).as("the verdict before the first chart").isPositive().isLessThan(page.indexOf("<img"));
        assertThat(folder.chartPng("rss-in-flight")).isNotEmptyFile();
        assertThat(Files.readAllLines(folder.measurementsCsv())).hasSize(1 + 8);

        LabCommand.Finished verdict = LabCommand.inThisJvm("report", folder.dir().toString(), "--verdict");
        assertThat(verdict.exitCode()).as(verdict.output()).isZero();
        assertThat(verdict.output()).startsWith("- Per request in flight (RSS").contains("**webflux**").contains("**mvc-t100**");
        assertThat(c.output()).contains(verdict.output());
    }

    @Test
    void aPoolSmallerThanTheCountIsRefusedBeforeAnythingStarts() {
        LabCommand.Finished c = LabCommand.inThisJvm("footprint", "--targets", "mvc-t20", "--counts", "0,50",
                "--results", tmp.toString());
        assertThat(c.exitCode()).as(c.output()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(c.output()).contains("target mvc-t20 holds 20 requests in flight at most (its pool), not 50: give mvc-t50-uncapped");
        assertThat(tmp.toFile().listFiles(f -> f.isDirectory() && f.getName().startsWith("footprint-"))).as("no experiment's folder").isEmpty();

        LabCommand.Finished one = LabCommand.inThisJvm("footprint", "--counts", "100", "--results", tmp.toString());
        assertThat(one.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(one.output()).contains("--counts [100]: give at least two counts, so that a line has a slope");

        LabCommand.Finished db = LabCommand.inThisJvm("footprint", "--targets", "webflux-db", "--counts", "0,10",
                "--results", tmp.toString());
        assertThat(db.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(db.output()).contains("target webflux-db waits on db/{latency}, not /hello");
        LabCommand.Finished tls = LabCommand.inThisJvm("footprint", "--targets", "webflux-h2", "--counts", "0,10", "--results", tmp.toString());
        assertThat(tls.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(tls.output()).contains("target webflux-h2 is served over TLS: a footprint holds plain connections").contains("give it without -h2");
    }

    private enum MemoryOf {
        THREADS, SOCKETS
    }

    /** What the target had at 100 more than at 0. */
    private static long grown(Footprint f, String target, Mode mode, MemoryOf what) {
        return at(f, target, mode, 100, what) - at(f, target, mode, 0, what);
    }

    private static long at(Footprint f, String target, Mode mode, int count, MemoryOf what) {
        Measurement m = f.measurements().stream().filter(x -> x.target().equals(target) && x.mode() == mode && x.count() == count)
                .findFirst().orElseThrow();
        return what == MemoryOf.THREADS ? m.memory().osThreads() : m.memory().sockets();
    }
}
