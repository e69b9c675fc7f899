package dev.latencylab.lab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.latencylab.load.TargetPorts;

/**
 * A target of a run or sweep point: which service, started with which settings, loaded on which path. The id is
 * used everywhere: command line, folder names, legends.
 *
 * @param id           e.g. mvc-t200, mvc-virtual, webflux
 * @param module       the Maven module whose jar is started
 * @param properties   Spring properties passed as --name=value
 * @param pathTemplate the path loaded, {latency} replaced by the point's latency
 * @param poolThreads  T for the model when a bounded pool serves requests, else 0
 */
public record Target(String id, String module, Map<String, String> properties, String pathTemplate, int poolThreads) {

    /** The Maven modules (and jar names) of the two services. */
    public static final String MVC_MODULE = "mvc-with-latency";
    public static final String WEBFLUX_MODULE = "webflux-with-latency";
    /**
     * Tomcat's connection cap, lifted for the -uncapped targets: far above what the open-files limit (20,000) lets a
     * process hold. (Spring Boot ignores -1 here and keeps Tomcat's 8192.)
     */
    static final Map<String, String> UNCAPPED = Map.of("server.tomcat.max-connections", "100000", "server.tomcat.accept-count", "10000");
    private static final Pattern MVC_POOL = Pattern.compile("mvc-t([0-9]+)(-uncapped)?");

    /** The ids `parse` knows, for help and error messages. */
    public static final String KNOWN = "mvc (= mvc-t200), mvc-t<threads> (e.g. mvc-t200, mvc-t400), mvc-virtual, "
            + "mvc-t<threads>-uncapped, mvc-virtual-uncapped, webflux, webflux-block-parallel, webflux-block-elastic";

    public static Target parse(String id) {
        Matcher pool = MVC_POOL.matcher(id);
        if (pool.matches()) {
            int threads = Integer.parseInt(pool.group(1));
            if (threads < 1) {
                throw new IllegalArgumentException("target " + id + ": a pool needs at least 1 thread");
            }
            Map<String, String> p = new LinkedHashMap<>();
            p.put("server.tomcat.threads.max", String.valueOf(threads));
            if (pool.group(2) != null) {
                p.putAll(UNCAPPED);
            }
            return new Target(id, MVC_MODULE, p, "hello/{latency}", threads);
        }
        return switch (id) {
            case "mvc" -> new Target("mvc-t200", MVC_MODULE, Map.of("server.tomcat.threads.max", "200"), "hello/{latency}", 200);
            case "mvc-virtual" -> new Target(id, MVC_MODULE, Map.of("spring.threads.virtual.enabled", "true"), "hello/{latency}", 0);
            case "mvc-virtual-uncapped" -> {
                Map<String, String> p = new LinkedHashMap<>(UNCAPPED);
                p.put("spring.threads.virtual.enabled", "true");
                yield new Target(id, MVC_MODULE, p, "hello/{latency}", 0);
            }
            case "webflux" -> new Target(id, WEBFLUX_MODULE, Map.of(), "hello/{latency}", 0);
            case "webflux-block-parallel" -> new Target(id, WEBFLUX_MODULE, Map.of(), "block/{latency}?scheduler=parallel", 0);
            case "webflux-block-elastic" -> new Target(id, WEBFLUX_MODULE, Map.of(), "block/{latency}?scheduler=bounded-elastic", 0);
            default -> throw new IllegalArgumentException("unknown target '" + id + "'; known: " + KNOWN);
        };
    }

    public static List<Target> parseAll(List<String> ids) {
        List<Target> targets = new ArrayList<>();
        for (String id : ids) {
            targets.add(parse(id.trim()));
        }
        return targets;
    }

    public String path(long latencyMs) {
        return pathTemplate.replace("{latency}", String.valueOf(latencyMs));
    }

    public int defaultPort() {
        return isMvc() ? TargetPorts.MVC : TargetPorts.WEBFLUX;
    }

    public boolean isMvc() {
        return module.equals(MVC_MODULE);
    }

    /** Tomcat's settings that bound connections, as the page and CSV record them ("" for WebFlux). */
    public String connectionSettings() {
        if (!isMvc()) {
            return "";
        }
        return "max-connections=%s accept-count=%s".formatted(
                properties.getOrDefault("server.tomcat.max-connections", "8192"),
                properties.getOrDefault("server.tomcat.accept-count", "100"));
    }
}
