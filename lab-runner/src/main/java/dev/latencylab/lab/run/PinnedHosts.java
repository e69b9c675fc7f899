package dev.latencylab.lab.run;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.latencylab.lab.layout.OutputFile;

/**
 * The addresses a service's host names had when the lab checked them, and the load's JVM held to them: a name whose
 * answer changes between the check and the load (DNS rebinding) must not send the load, and its headers, elsewhere.
 * That JVM reads them from a hosts file (the JDK's jdk.net.hosts.file) instead of asking again; an address given as
 * such needs none.
 *
 * @param names each host name checked, with its addresses then
 */
public record PinnedHosts(Map<String, List<String>> names) {

    /** The JDK's property that makes its resolver read a hosts file instead of the system's. */
    static final String HOSTS_FILE = "jdk.net.hosts.file";

    public static final PinnedHosts NONE = new PinnedHosts(Map.of());

    public PinnedHosts {
        names = java.util.Collections.unmodifiableMap(new TreeMap<>(names));
    }

    /**
     * The addresses of host, looked up once: none kept for an address given as such.
     *
     * @throws UnknownHostException when it has none
     */
    public static Resolved resolve(String host) throws UnknownHostException {
        InetAddress[] all = InetAddress.getAllByName(host);
        boolean literal = host.startsWith("[") || host.matches("[0-9.]+") || host.contains(":");
        List<String> addresses = new ArrayList<>();
        for (InetAddress a : all) {
            addresses.add(a.getHostAddress());
        }
        return new Resolved(List.of(all), literal ? NONE : new PinnedHosts(Map.of(host, addresses)));
    }

    /** A host's addresses, and the pin they make (none for a literal). */
    public record Resolved(List<InetAddress> addresses, PinnedHosts pin) {
    }

    /** These names and those of other. */
    public PinnedHosts and(PinnedHosts other) {
        Map<String, List<String>> all = new LinkedHashMap<>(names);
        all.putAll(other.names);
        return new PinnedHosts(all);
    }

    /**
     * The load JVM's properties that hold it to these addresses, its hosts file written at file; none when no name was
     * checked. The file also holds localhost and this machine's own name, which the JVM may look up for itself.
     */
    public Map<String, String> properties(Path file) {
        if (names.isEmpty()) {
            return Map.of();
        }
        StringBuilder hosts = new StringBuilder("# latency-lab: the addresses each name had when the lab checked it; the load's JVM "
                + "reads these instead of asking DNS again\n");
        names.forEach((name, addresses) -> addresses.forEach(a -> hosts.append(a).append(' ').append(name).append('\n')));
        hosts.append("127.0.0.1 localhost\n::1 localhost\n");
        try {
            InetAddress self = InetAddress.getLocalHost();
            hosts.append(self.getHostAddress()).append(' ').append(self.getHostName()).append('\n');
        }
        catch (UnknownHostException e) {
            // a machine without a name of its own: none to hold
        }
        OutputFile.text(file, hosts.toString());
        return Map.of(HOSTS_FILE, file.toAbsolutePath().toString());
    }
}
