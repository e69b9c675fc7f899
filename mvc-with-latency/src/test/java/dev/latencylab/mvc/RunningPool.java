package dev.latencylab.mvc;

import org.apache.coyote.AbstractProtocol;

import org.springframework.boot.tomcat.TomcatWebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;

/**
 * The worker pool size of the running Tomcat, read from its request connector. (Its tomcat.threads.config.max metric
 * says the same in a JVM of its own, and the lab's integration tests read that from the real jar; with several test
 * servers in one JVM, Tomcat's shared MBean registry makes that metric ambiguous.)
 */
final class RunningPool {

    private RunningPool() {
    }

    static int maxThreads(ApplicationContext context) {
        TomcatWebServer server = (TomcatWebServer) ((WebServerApplicationContext) context).getWebServer();
        return ((AbstractProtocol<?>) server.getTomcat().getConnector().getProtocolHandler()).getMaxThreads();
    }
}
