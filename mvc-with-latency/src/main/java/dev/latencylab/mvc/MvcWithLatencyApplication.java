package dev.latencylab.mvc;

import dev.latencylab.contract.HelloContractConfiguration;

import org.apache.catalina.core.StandardHost;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

@SpringBootApplication
@Import(HelloContractConfiguration.class)
public class MvcWithLatencyApplication {

    /** Requests Tomcat rejects itself get the contract's problem+json, not Tomcat's HTML page. */
    @Bean
    TomcatContextCustomizer problemErrorReports() {
        return context -> ((StandardHost) context.getParent()).setErrorReportValveClass(ProblemErrorReportValve.class.getName());
    }

    public static void main(String[] args) {
        SpringApplication.run(MvcWithLatencyApplication.class, args);
    }
}
