package dev.latencylab.mvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * A pool or connection setting out of range stops the real application before its server starts, with the setting
 * named in Spring Boot's report, where Tomcat would have taken its default of 200 threads without a word.
 */
@ExtendWith(OutputCaptureExtension.class)
class ServerSettingsCheckTest {

    @ParameterizedTest
    @CsvSource({"server.tomcat.threads.max=0, server.tomcat.threads.max is 0; give a whole number of 1 or more",
            "server.tomcat.threads.max=-5, server.tomcat.threads.max is -5",
            "server.tomcat.max-threads=0, server.tomcat.threads.max is 0",
            "server.tomcat.max-connections=0, server.tomcat.max-connections is 0; give a whole number of 1 or more (or -1: no limit)"})
    void aSettingOutOfRangeStopsTheStartNamingIt(String setting, String says, CapturedOutput output) {
        // as the command line gives it (./lab's -D and compose's variables rank above application.properties too)
        assertThatThrownBy(() -> new SpringApplicationBuilder(MvcWithLatencyApplication.class).run("--" + setting, "--server.port=0",
                "--management.server.port=0").close()).isInstanceOf(ServerSettingsCheck.OutOfRange.class);
        assertThat(output.getOut() + output.getErr()).contains("APPLICATION FAILED TO START").contains(says);
    }
}
