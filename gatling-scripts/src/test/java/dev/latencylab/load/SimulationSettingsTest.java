package dev.latencylab.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Properties;

import org.junit.jupiter.api.Test;

import dev.latencylab.load.SimulationSettings.ConnectionMode;
import dev.latencylab.load.SimulationSettings.InvalidSettingsException;

class SimulationSettingsTest {

    private static SimulationSettings parse(String... pairs) {
        Properties p = new Properties();
        for (int i = 0; i < pairs.length; i += 2) {
            p.setProperty(pairs[i], pairs[i + 1]);
        }
        return SimulationSettings.from(p);
    }

    @Test
    void defaultsReproduceThePublishedExperiment() {
        SimulationSettings s = parse();
        assertThat(s.users()).isEqualTo(1000);
        assertThat(s.baseUrl()).isEqualTo("http://localhost:8092");
        assertThat(s.metricsUrl()).isEqualTo("http://localhost:9092");
        assertThat(s.path()).isEqualTo("/hello/100");
        assertThat(s.ramp()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.repeat()).isEqualTo(30);
        assertThat(s.thinkMin()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.thinkMax()).isEqualTo(Duration.ofSeconds(2));
        assertThat(s.thinkMean()).isEqualTo(Duration.ofMillis(1500));
        assertThat(s.connections()).isEqualTo(ConnectionMode.AUTO);
        assertThat(s.latencyMs()).hasValue(100);
        assertThat(s.resultFile()).isEmpty();
        assertThat(s.sampleServer()).isTrue();
    }

    @Test
    void targetShortcutAndPathWithOrWithoutSlash() {
        SimulationSettings mvc = parse("target", "mvc", "test.path", "/hello/250");
        assertThat(mvc.baseUrl()).isEqualTo("http://localhost:8091");
        assertThat(mvc.metricsUrl()).isEqualTo("http://localhost:9091");
        assertThat(mvc.path()).isEqualTo("/hello/250");
        assertThat(mvc.latencyMs()).hasValue(250);
        assertThat(parse("test.path", "block/40?scheduler=parallel").latencyMs()).hasValue(40);
        assertThat(parse("test.path", "hello").latencyMs()).isEmpty();
        assertThat(parse("base.url", "http://127.0.0.1:18092/").baseUrl()).isEqualTo("http://127.0.0.1:18092");
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
        assertThat(parse("test.path", "block/40?scheduler=bounded-elastic").path()).isEqualTo("/block/40?scheduler=bounded-elastic");
        assertThat(parse("test.path", "/hello/%31%30").path()).isEqualTo("/hello/%31%30");
        assertThat(parse("test.path", "/hello/-1").path()).as("the target judges a latency (preflight)").isEqualTo("/hello/-1");
        for (String bad : new String[] {"/hello/#{x}", "/hello/100#top", "/hello/ 100", "/hello/%zz", "/hello/{latency}"}) {
            assertThatThrownBy(() -> parse("test.path", bad)).as(bad)
                    .hasMessageContaining("test.path=" + bad + " is not a URL path; allowed:");
        }
    }

    @Test
    void targetPidIsAPositiveWholeNumber() {
        assertThat(parse("sim.target.pid", "4242").targetPid()).hasValue(4242);
        assertThat(parse().targetPid()).isEmpty();
        assertThatThrownBy(() -> parse("sim.target.pid", "0")).hasMessageContaining("sim.target.pid=0 is out of range");
    }

    @Test
    void settingsRenderThemselvesToTheSamePropertiesTheyWereReadFrom() {
        SimulationSettings s = parse("sim.users", "5000", "test.path", "block/40?scheduler=parallel", "sim.ramp.seconds", "10",
                "sim.repeat", "3", "sim.think.min.ms", "500", "sim.think.max.ms", "700", "sim.connections", "shared",
                "sim.model.threads", "400", "sim.assert.p95.ms", "250", "sim.assert.ko.percent", "1.5", "sim.sample.server", "false");
        assertThat(SimulationSettings.from(s.toProperties())).isEqualTo(s);

        SimulationSettings started = s.forTarget("http://localhost:18092", 4242, java.nio.file.Path.of("/tmp/r.json"));
        assertThat(started.toProperties()).containsEntry("base.url", "http://localhost:18092")
                .containsEntry("sim.metrics.url", "http://localhost:19092").containsEntry("sim.target.pid", "4242")
                .containsEntry("sim.result.file", "/tmp/r.json").containsEntry("sim.users", "5000");
        assertThat(SimulationSettings.from(started.toProperties())).isEqualTo(started);
    }

    @Test
    void propertiesThatAreNotOursPassThrough() {
        assertThat(SimulationSettings.notOurs(java.util.Map.of("gatling.http.requestTimeout", "50", "sim.users", "3", "target", "mvc")))
                .containsOnlyKeys("gatling.http.requestTimeout");
    }
}
