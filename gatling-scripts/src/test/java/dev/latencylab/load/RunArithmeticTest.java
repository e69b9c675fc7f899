package dev.latencylab.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.OptionalInt;
import java.util.Properties;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import dev.latencylab.load.SimulationSettings.ConnectionMode;

/** The small pieces of a run that need no server: KO reasons, descriptors, Prometheus text, histograms. */
class RunArithmeticTest {

    @Test
    void koReasonFromStatusOrTimeToFailure() {
        assertThat(KoReason.classify(503, 12, 10_000, 60_000)).isEqualTo("HTTP 503");
        assertThat(KoReason.classify(-1, 60_002, 10_000, 60_000)).isEqualTo("no response: request timeout (60 s)");
        assertThat(KoReason.classify(-1, 10_004, 10_000, 60_000)).isEqualTo("no response: connect timeout (10 s)");
        assertThat(KoReason.classify(-1, 3, 10_000, 60_000)).isEqualTo("no response: connection failed");
        assertThat(KoReason.classify(-1, 60, 10_000, 50)).isEqualTo("no response: request timeout (50 ms)");
    }

    @Test
    void goodputCountsOkResponsesOnlyCompletionsCountBoth() {
        RunRecorder run = new RunRecorder();
        run.start();
        run.record(100, null);
        run.record(100, null);
        run.record(10_000, "no response: connect timeout (10 s)");
        run.record(100, null);
        run.finish();
        assertThat(run.completedPerSecond()).containsExactly(4);
        assertThat(run.okPerSecond()).as("as long as the completions, OK only").containsExactly(3);
        assertThat(run.ok()).isEqualTo(3);
        assertThat(run.ko()).isEqualTo(1);
    }

    private static SimulationSettings settings(String users, String connections) {
        Properties p = new Properties();
        p.setProperty("sim.users", users);
        p.setProperty("sim.connections", connections);
        return SimulationSettings.from(p);
    }

    @Test
    void perUserConnectionsFitOrAutoSwitchesToShared() {
        Preflight fits = Preflight.decide(settings("10000", "auto"), 20_000, OptionalInt.empty());
        assertThat(fits.connections()).isEqualTo(ConnectionMode.PER_USER);
        assertThat(fits.switched()).isFalse();
        assertThat(fits.openFilesNeeded()).isEqualTo(10_000 + Preflight.JVM_OWN_FILES);

        Preflight switched = Preflight.decide(settings("20000", "auto"), 20_000, OptionalInt.empty());
        assertThat(switched.connections()).isEqualTo(ConnectionMode.SHARED);
        assertThat(switched.switched()).isTrue();

        assertThat(Preflight.decide(settings("20000", "shared"), 20_000, OptionalInt.empty()).switched()).isFalse();
    }

    @Test
    void perUserThatCannotFitStopsWithLimitNeedAndOptions() {
        assertThatThrownBy(() -> Preflight.decide(settings("20000", "per-user"), 20_000, OptionalInt.empty()))
                .hasMessageContaining("20000 users with one connection each need about 20400 open files")
                .hasMessageContaining("this process may open 20000 (ulimit -n)")
                .hasMessageContaining("-Dsim.connections=shared");
    }

    @Test
    void usersThatDoNotOverlapNeedFewerFiles() {
        Properties p = new Properties();
        p.setProperty("sim.users", "10000");
        p.setProperty("sim.ramp.seconds", "600");
        p.setProperty("sim.repeat", "3");
        // each lives 3 x 1.6 s = 4.8 s of a 600 s ramp: about 80 at once
        assertThat(Preflight.peakActiveUsers(SimulationSettings.from(p))).isEqualTo(81);
    }

    @Test
    void prometheusGaugesAreSummedPerNameKeepingHeapAndTheLoadedConnector() {
        String text = """
                # HELP jvm_threads_live_threads x
                jvm_threads_live_threads 216.0
                jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 100.0
                jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} 50.0
                jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 7.0
                tomcat_threads_busy_threads{name="http-nio-8091"} 200.0
                tomcat_threads_busy_threads{name="http-nio-9091"} 1.0
                process_cpu_usage 0.5
                httpcomponents_httpclient_pool_total_connections{httpclient="downstream",state="available"} 3.0
                httpcomponents_httpclient_pool_total_connections{httpclient="downstream",state="leased"} 5.0
                httpcomponents_httpclient_pool_route_max_default{httpclient="downstream"} 5.0
                """;
        Map<String, Double> m = Sampler.parsePrometheus(text, "name=\"http-nio-8091\"");
        assertThat(m).containsEntry("jvm_threads_live_threads", 216.0)
                .containsEntry("jvm_memory_used_bytes{area=\"heap\"}", 150.0)
                .containsEntry("tomcat_threads_busy_threads", 200.0)
                .containsEntry("process_cpu_usage", 0.5)
                .containsEntry("httpcomponents_httpclient_pool_total_connections{state=\"leased\"}", 5.0);
        assertThat(Sampler.ConnectionPool.in(m, "/http/100")).as("the pool is HttpClient's").hasValue(Sampler.ConnectionPool.HTTPCLIENT5);
        assertThat(Sampler.ConnectionPool.gauge(m, "/http/100", p -> p.active)).as("leased, not leased + available").isEqualTo(5.0);
        assertThat(Sampler.ConnectionPool.in(m, "/hello/100")).as("/hello waits on no pool").isEmpty();
    }

    /** WebFlux publishes its r2dbc-pool (idle, 10) beside Reactor Netty's on /http: the path decides which one counts. */
    @Test
    void thePoolCountedIsTheOneTheLoadedPathWaitsOn() {
        String text = """
                r2dbc_pool_max_allocated_connections{name="connectionFactory"} 10.0
                r2dbc_pool_acquired_connections{name="connectionFactory"} 0.0
                reactor_netty_connection_provider_max_connections{id="1",name="downstream",remote_address="127.0.0.1:8093"} 16.0
                reactor_netty_connection_provider_active_connections{id="1",name="downstream",remote_address="127.0.0.1:8093"} 16.0
                """;
        Map<String, Double> m = Sampler.parsePrometheus(text, "name=\"http-nio-8092\"");
        assertThat(Sampler.ConnectionPool.in(m, "/http/100")).hasValue(Sampler.ConnectionPool.REACTOR_NETTY);
        assertThat(Sampler.ConnectionPool.gauge(m, "/http/100", p -> p.max)).isEqualTo(16.0);
        assertThat(Sampler.ConnectionPool.in(m, "/db/100")).hasValue(Sampler.ConnectionPool.R2DBC);
    }

    @Test
    void encodedHistogramsOfSeveralInjectorsMergeExactly() {
        RunRecorder a = new RunRecorder();
        RunRecorder b = new RunRecorder();
        a.start();
        b.start();
        for (int i = 1; i <= 1000; i++) {
            a.record(100 + i % 7, null);
            b.record(2000 + i, i % 10 == 0 ? "HTTP 503" : null);
        }
        Histogram merged = ResultFile.decode(ResultFile.encode(a.responseTimes()));
        merged.add(ResultFile.decode(ResultFile.encode(b.responseTimes())));

        Histogram direct = a.responseTimes();
        direct.add(b.responseTimes());
        assertThat(merged).isEqualTo(direct);
        assertThat(merged.getTotalCount()).isEqualTo(2000);
        assertThat(b.ko()).isEqualTo(100);
        assertThat(b.koByReason()).containsEntry("HTTP 503", 100L);
    }
}
