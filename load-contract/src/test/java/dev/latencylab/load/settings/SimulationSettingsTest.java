package dev.latencylab.load.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import dev.latencylab.load.model.OpenModel;
import dev.latencylab.load.settings.SimulationSettings.ConnectionMode;
import dev.latencylab.load.settings.SimulationSettings.InvalidSettingsException;

class SimulationSettingsTest {

    private static SimulationSettings parse(String... pairs) {
        Properties p = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            p.setProperty(pairs[i], pairs[i + 1]);
        }
        return SimulationSettings.from(p);
    }

    /**
     * Users that finish their requests before the ramp has started the last are never all active at once: said before
     * the run (10 requests with 1.5 s of think time each live about 15 s, half a 30-s ramp), and not when they overlap.
     */
    @Test
    void aLoadWhoseUsersCannotAllBeActiveAtOnceIsSaidBeforeItRuns() {
        SimulationSettings short_ = parse("sim.users", "100", "sim.repeat", "10", "sim.ramp.seconds", "30", "sim.think.min.ms", "1000",
                "sim.think.max.ms", "2000", "test.path", "/owners");
        assertThat(short_.peakActiveUsers()).isEqualTo(51);
        assertThat(short_.plateauUnreachable()).contains("100 users: each lives at least 15.0 s").contains("about 51 of them")
                .contains("--requests-per-user");
        assertThat(parse("sim.users", "100", "sim.repeat", "20", "sim.ramp.seconds", "30", "sim.think.min.ms", "1000", "sim.think.max.ms", "2000",
                "test.path", "/owners").plateauUnreachable()).isNull();
        // the path's latency counts: 10 x (100 ms + 1.5 s) = 16 s, still short of 30
        assertThat(parse("sim.users", "100", "sim.repeat", "10", "sim.ramp.seconds", "30", "sim.think.min.ms", "1000", "sim.think.max.ms", "2000",
                "test.path", "/hello/100").plateauUnreachable()).contains("each lives about 16.0 s");
        assertThat(parse("sim.injection", "open", "sim.rate", "50", "test.path", "/hello/100").plateauUnreachable()).isNull();
    }

    @Test
    void defaultsReproduceThePublishedExperiment() {
        SimulationSettings s = parse();
        assertThat(s.users()).isEqualTo(1000);
        assertThat(s.endpoint().baseUrl()).isEqualTo("http://localhost:8092");
        assertThat(s.endpoint().metricsUrl()).isEqualTo("http://localhost:9092");
        assertThat(s.endpoint().path()).isEqualTo("/hello/100");
        assertThat(s.pacing().ramp()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.pacing().repeat()).isEqualTo(30);
        assertThat(s.pacing().thinkMin()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.pacing().thinkMax()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.thinkMean()).isEqualTo(Duration.ofMillis(1500));
        assertThat(s.connections()).isEqualTo(ConnectionMode.AUTO);
        assertThat(s.latencyMs()).hasValue(100);
        assertThat(s.resultFile()).isEmpty();
        assertThat(s.watch().sampleServer()).isTrue();
    }

    @Test
    void targetShortcutAndPathWithOrWithoutSlash() {
        SimulationSettings mvc = parse("target", "mvc", "test.path", "/hello/250");
        assertThat(mvc.endpoint().baseUrl()).isEqualTo("http://localhost:8091");
        assertThat(mvc.endpoint().metricsUrl()).isEqualTo("http://localhost:9091");
        assertThat(mvc.endpoint().path()).isEqualTo("/hello/250");
        assertThat(mvc.latencyMs()).hasValue(250);
        assertThat(parse("test.path", "block/40?scheduler=parallel").latencyMs()).hasValue(40);
        assertThat(parse("test.path", "db/60").latencyMs()).as("the database waits that long").hasValue(60);
        assertThat(parse("test.path", "http/70").latencyMs()).as("the downstream waits that long").hasValue(70);
        assertThat(parse("test.path", "hello").latencyMs()).isEmpty();
        assertThat(parse("base.url", "http://127.0.0.1:18092/").endpoint().baseUrl()).isEqualTo("http://127.0.0.1:18092");
        assertThat(parse("sim.connections", "shared").connections()).isEqualTo(ConnectionMode.SHARED);
    }

    @Test
    void everyBadValueIsNamedWithWhatIsAllowed() {
        assertThatThrownBy(() -> parse("sim.users", "abc", "sim.ramp.seconds", "0", "sim.think.min.ms", "-5",
                "target", "tomcat", "sim.connections", "pooled", "sim.repeat", "99999999999"))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("sim.users=abc is not a whole number; allowed: a whole number >= 1")
                .hasMessageContaining("sim.ramp.seconds=0 is out of range; allowed: a whole number from 1 to 86400")
                .hasMessageContaining("sim.think.min.ms=-5 is out of range")
                .hasMessageContaining("target=tomcat is unknown; allowed: mvc (http://localhost:8091) or webflux (http://localhost:8092)")
                .hasMessageContaining("sim.connections=pooled is unknown; allowed: auto, per-user or shared")
                .hasMessageContaining("sim.repeat=99999999999 is out of range");
    }

    @Test
    void nonPositiveUsersThinkOrderAndUrlsAreRejected() {
        assertThatThrownBy(() -> parse("sim.users", "0")).hasMessageContaining("sim.users=0 is out of range");
        assertThatThrownBy(() -> parse("sim.users", "-3")).hasMessageContaining("sim.users=-3 is out of range");
        assertThatThrownBy(() -> parse("sim.think.min.ms", "2000", "sim.think.max.ms", "1000"))
                .hasMessageContaining("sim.think.min.ms=2000 is above sim.think.max.ms=1000; allowed: min <= max");
        assertThatThrownBy(() -> parse("base.url", "localhost:8092"))
                .hasMessageContaining("base.url=localhost:8092 is not a URL of a server");
        assertThatThrownBy(() -> parse("base.url", "http://localhost:8092/hello/100"))
                .hasMessageContaining("(a path goes in test.path)");
        assertThatThrownBy(() -> parse("target", "mvc", "base.url", "http://localhost:9999"))
                .hasMessageContaining("target=mvc and base.url=http://localhost:9999 disagree");
        assertThatThrownBy(() -> parse("sim.assert.ko.percent", "150")).hasMessageContaining("is not a percentage");
        assertThatThrownBy(() -> parse("sim.sample.server", "yes")).hasMessageContaining("allowed: true or false");
    }

    @Test
    void aMisspeltPropertyStopsTheRunNamingTheClosestKnownOne() {
        assertThatThrownBy(() -> parse("sim.user", "5")).isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("sim.user is not a property of the simulation (a typo?); did you mean sim.users?");
        assertThatThrownBy(() -> parse("test.paht", "hello/5")).hasMessageContaining("did you mean test.path?");
        assertThatThrownBy(() -> parse("base.uri", "http://localhost:1")).hasMessageContaining("did you mean base.url?");
        assertThatThrownBy(() -> parse("sim.think.max", "10")).hasMessageContaining("did you mean sim.think.max.ms?");
        // other families (Gatling's own, Maven's, the JVM's) are not ours to judge
        assertThat(parse("gatling.http.requestTimeout", "5000", "maven.repo.local", "/tmp").users()).isEqualTo(1000);
    }

    @Test
    void testPathIsAPlainUrlPathTakenLiterally() {
        assertThat(parse("test.path", "block/40?scheduler=bounded-elastic").endpoint().path()).isEqualTo("/block/40?scheduler=bounded-elastic");
        assertThat(parse("test.path", "/hello/%31%30").endpoint().path()).isEqualTo("/hello/%31%30");
        assertThat(parse("test.path", "/hello/-1").endpoint().path()).as("the target judges a latency (preflight)").isEqualTo("/hello/-1");
        for (String bad : new String[] {"/hello/#{x}", "/hello/100#top", "/hello/ 100", "/hello/%zz", "/hello/{latency}"}) {
            assertThatThrownBy(() -> parse("test.path", bad)).as(bad)
                    .hasMessageContaining("test.path=" + bad + " is not a URL path; allowed:");
        }
    }

    @Test
    void targetPidIsAPositiveWholeNumber() {
        assertThat(parse("sim.target.pid", "4242").watch().targetPid()).hasValue(4242);
        assertThat(parse().watch().targetPid()).isEmpty();
        assertThatThrownBy(() -> parse("sim.target.pid", "0")).hasMessageContaining("sim.target.pid=0 is out of range");
    }

    @Test
    void settingsRenderThemselvesToTheSamePropertiesTheyWereReadFrom() {
        SimulationSettings s = parse("sim.users", "5000", "test.path", "block/40?scheduler=parallel", "sim.ramp.seconds", "10",
                "sim.repeat", "3", "sim.think.min.ms", "500", "sim.think.max.ms", "700", "sim.connections", "shared",
                "sim.model.threads", "400", "sim.assert.p95.ms", "250", "sim.assert.ko.percent", "1.5", "sim.sample.server", "false");
        assertThat(SimulationSettings.from(s.toProperties())).isEqualTo(s);

        SimulationSettings started = s.forTarget("http://localhost:18092", false, 4242, java.nio.file.Path.of("/tmp/r.json"));
        assertThat(started.toProperties()).containsEntry("base.url", "http://localhost:18092")
                .containsEntry("sim.metrics.url", "http://localhost:19092").containsEntry("sim.target.pid", "4242")
                .containsEntry("sim.result.file", "/tmp/r.json").containsEntry("sim.users", "5000");
        assertThat(SimulationSettings.from(started.toProperties())).isEqualTo(started);
    }

    @Test
    void http2GoesOverTlsAloneAndTheActuatorStaysInClearText() {
        SimulationSettings h2 = parse("base.url", "https://localhost:18092", "sim.http2", "true");
        assertThat(h2.endpoint().protocol()).isEqualTo(dev.latencylab.load.tls.Protocol.H2);
        assertThat(h2.endpoint().metricsUrl()).as("the targets' actuator over http").isEqualTo("http://localhost:19092");
        assertThat(SimulationSettings.from(h2.toProperties())).isEqualTo(h2);
        assertThat(parse("base.url", "https://localhost:18092").endpoint().protocol()).isEqualTo(dev.latencylab.load.tls.Protocol.H1_TLS);
        assertThat(parse().endpoint().protocol()).isEqualTo(dev.latencylab.load.tls.Protocol.H1);
        assertThat(h2.result().endpoint().protocol()).isEqualTo("h2");
        assertThat(parse().result().endpoint().protocol()).isEqualTo("h1");
        assertThat(parse().result().endpoint().trust()).as("no trust over h1").isNull();
        assertThatThrownBy(() -> parse("base.url", "http://localhost:18092", "sim.http2", "true"))
                .hasMessageContaining("sim.http2=true needs an https base.url (HTTP/2 is chosen by ALPN over TLS; h2c is not offered)");
        SimulationSettings started = parse().forTarget("https://localhost:18092", true, 1, java.nio.file.Path.of("/tmp/r.json"));
        assertThat(started.toProperties()).containsEntry("sim.http2", "true").containsEntry("sim.metrics.url", "http://localhost:19092");
    }

    @Test
    void propertiesThatAreNotOursPassThrough() {
        assertThat(SimulationSettings.notOurs(java.util.Map.of("gatling.http.requestTimeout", "50", "sim.users", "3", "target", "mvc")))
                .containsOnlyKeys("gatling.http.requestTimeout");
    }

    @Test
    void theOpenModelTakesARateOrALadderAndDerivesItsSlo() {
        SimulationSettings open = parse("sim.injection", "open", "sim.rate", "250", "test.path", "hello/150");
        assertThat(open.open()).isTrue();
        assertThat(open.load().rates()).containsExactly(250.0);
        assertThat(open.load().levelDuration()).isEqualTo(Duration.ofSeconds(60));
        assertThat(open.load().sloP99Ms()).as("latency + 100").hasValue(250);
        assertThat(open.load().sloKoPercent()).isZero();
        assertThat(open.load().stopOnSloMiss()).isFalse();
        assertThat(open.connections()).as("arrivals share connections").isEqualTo(ConnectionMode.SHARED);
        assertThat(open.load().arrivals()).isEqualTo(SimulationSettings.Arrivals.UNIFORM);

        SimulationSettings ladder = parse("sim.injection", "open", "sim.rate", "10, 20.5,40", "sim.level.seconds", "5",
                "sim.arrivals", "poisson", "sim.slo.p99.ms", "300", "sim.slo.ko.percent", "0.5", "sim.stop.on.slo.miss", "true");
        assertThat(ladder.openLoad().orElseThrow().rates()).containsExactly(10.0, 20.5, 40.0);
        assertThat(ladder.openLoad().orElseThrow().poisson()).isTrue();
        assertThat(ladder.load().sloP99Ms()).hasValue(300);
        assertThat(SimulationSettings.from(ladder.toProperties())).as("toProperties round trip").isEqualTo(ladder);
        assertThat(ladder.toProperties()).as("no closed-model property").doesNotContainKeys("sim.users", "sim.repeat", "sim.connections")
                .containsEntry("sim.rate", "10,20.5,40");
        assertThat(parse().openLoad()).as("closed, the default").isEmpty();
    }

    @Test
    void badOpenModelInputIsNamedBeforeAnyRequest() {
        assertThatThrownBy(() -> parse("sim.injection", "open"))
                .hasMessageContaining("sim.rate is needed with sim.injection=open");
        assertThatThrownBy(() -> parse("sim.injection", "open", "sim.rate", "-5"))
                .hasMessageContaining("sim.rate=-5: '-5' is not a positive number of requests per second");
        assertThatThrownBy(() -> parse("sim.injection", "open", "sim.rate", "0"))
                .hasMessageContaining("'0' is not a positive number");
        assertThatThrownBy(() -> parse("sim.injection", "open", "sim.rate", "fast"))
                .hasMessageContaining("'fast' is not a positive number");
        assertThatThrownBy(() -> parse("sim.injection", "open", "sim.rate", "100,50"))
                .hasMessageContaining("the levels of a ladder must rise (50 after 100)");
        assertThatThrownBy(() -> parse("sim.injection", "open", "sim.rate", "100", "sim.level.seconds", "2"))
                .hasMessageContaining("sim.level.seconds=2 is out of range; allowed: a whole number from 5 to 86400");
        assertThatThrownBy(() -> parse("sim.injection", "open", "sim.rate", "100", "sim.slo.p99.ms", "soon"))
                .hasMessageContaining("sim.slo.p99.ms=soon is not a whole number");
        assertThatThrownBy(() -> parse("sim.injection", "open", "sim.rate", "100", "test.path", "hello"))
                .hasMessageContaining("sim.slo.p99.ms is needed: test.path=/hello names no latency");
        assertThatThrownBy(() -> parse("sim.injection", "open", "sim.rate", "100", "sim.arrivals", "bursty"))
                .hasMessageContaining("sim.arrivals=bursty is unknown; allowed: uniform or poisson");
        assertThatThrownBy(() -> parse("sim.injection", "opened"))
                .hasMessageContaining("sim.injection=opened is unknown; allowed: closed");
        assertThatThrownBy(() -> parse("sim.injection", "open", "sim.rate", "100", "sim.users", "50"))
                .hasMessageContaining("sim.users is a property of the closed model");
        assertThatThrownBy(() -> parse("sim.rate", "100"))
                .hasMessageContaining("sim.rate is a property of the open model; add -Dsim.injection=open");
    }

    @Test
    void anInjectorOfASplitRunStartsItsShareAndRoundTrips() {
        long at = System.currentTimeMillis() + 30_000;
        SimulationSettings s = parse("sim.users", "1001", "sim.injectors", "2", "sim.injector.index", "1", "sim.start.at", String.valueOf(at));
        assertThat(s.users()).as("the whole run's").isEqualTo(1001);
        assertThat(s.usersHere()).as("injector 1 of 2").isEqualTo(500);
        assertThat(s.split().startAt()).hasValue(java.time.Instant.ofEpochMilli(at));
        assertThat(SimulationSettings.from(s.toProperties())).isEqualTo(s);
        assertThat(s.result().split().injectors()).isEqualTo(2);
        assertThat(s.result().split().injectorIndex()).isEqualTo(1);
        assertThat(s.result().split().startAtEpochMs()).isEqualTo(at);
        assertThat(parse().usersHere()).as("alone: all of them").isEqualTo(1000);
        assertThat(parse().toProperties()).doesNotContainKeys("sim.injectors", "sim.injector.index", "sim.start.at");
    }

    @Test
    void anOpenInjectorSendsItsShareOfEachRateAndRecordsTheWholeRun() {
        SimulationSettings s = parse("sim.injection", "open", "sim.rate", "100,2400.001", "sim.injectors", "2", "sim.injector.index", "1");
        assertThat(s.openLoad().orElseThrow().rates()).as("injector 1 of 2: injector 0 takes the odd thousandth").containsExactly(50.0, 1200.0);
        SimulationSettings first = parse("sim.injection", "open", "sim.rate", "100,2400.001", "sim.injectors", "2", "sim.injector.index", "0");
        assertThat(first.openLoad().orElseThrow().rates()).containsExactly(50.0, 1200.001);
        assertThat(s.load().rates()).containsExactly(100.0, 2400.001);
        assertThat(s.result().injection().rates()).as("the result records the whole run's rates").containsExactly(100.0, 2400.001);
        assertThat(OpenModel.of(s, java.util.OptionalInt.of(200)).orElseThrow().rate()).as("the model is the whole run's").isEqualTo(2400.001);
        assertThat(SimulationSettings.from(s.toProperties())).isEqualTo(s);
    }

    @Test
    void aSplitThatCannotWorkIsRefusedWithWhatIsAllowed() {
        assertThatThrownBy(() -> parse("sim.injectors", "2", "sim.injector.index", "2"))
                .hasMessageContaining("sim.injector.index=2 is outside 0..1 for sim.injectors=2");
        assertThatThrownBy(() -> parse("sim.injectors", "0")).hasMessageContaining("sim.injectors=0 is out of range");
        assertThatThrownBy(() -> parse("sim.users", "2", "sim.injectors", "3"))
                .hasMessageContaining("sim.users=2 over sim.injectors=3 leaves an injector without a user");
        assertThatThrownBy(() -> parse("sim.injection", "open", "sim.rate", "0.0015,100", "sim.injectors", "2"))
                .hasMessageContaining("sim.rate=0.0015 over sim.injectors=2 does not split into equal shares of whole thousandths");
        assertThatThrownBy(() -> parse("sim.start.at", "soon")).hasMessageContaining("sim.start.at=soon is not a time; allowed: epoch milliseconds");
        String nextYear = String.valueOf(System.currentTimeMillis() + 365L * 24 * 3600 * 1000);
        assertThatThrownBy(() -> parse("sim.start.at", nextYear)).hasMessageContaining("minutes ahead; allowed: epoch milliseconds at most 60 minutes ahead");
    }
}
