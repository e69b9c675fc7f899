package dev.latencylab.lab.targets;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.run.TargetProcess;
import dev.latencylab.lab.run.TargetProcess;

/** Both real jars answer the same bad input with the same status, content type and body. */
class ContractParityIT {

    @TempDir
    Path logs;

    @Test
    void sameProblemBodiesOnBothTargets() {
        JsonMapper json = JsonMapper.builder().build();
        try (TargetProcess mvc = Lab.start(Target.MVC_MODULE, Lab.freePort(), Map.of(), Map.of(), logs.resolve("mvc.log"));
                TargetProcess webflux = Lab.start(Target.WEBFLUX_MODULE, Lab.freePort(), Map.of(), Map.of(), logs.resolve("webflux.log"))) {
            for (String path : List.of("/hello/-1", "/hello/60001", "/hello/abc", "/hello/2.5", "/hello/99999999999999999999")) {
                HttpResponse<String> a = Lab.get(mvc.baseUrl() + path);
                HttpResponse<String> b = Lab.get(webflux.baseUrl() + path);
                assertThat(a.statusCode()).as(path).isEqualTo(400).isEqualTo(b.statusCode());
                assertThat(a.headers().firstValue("Content-Type")).as(path).hasValue("application/problem+json");
                assertThat(b.headers().firstValue("Content-Type")).as(path).hasValue("application/problem+json");
                assertThat(json.readTree(a.body())).as(path).isEqualTo(json.readTree(b.body()));
            }
            assertThat(Lab.get(mvc.baseUrl() + "/hello").body()).isEqualTo(Lab.get(webflux.baseUrl() + "/hello").body())
                    .isEqualTo("Welcome to reactive world ~");
        }
    }
}
