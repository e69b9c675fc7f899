package dev.latencylab.load.guard;

import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;

import dev.latencylab.load.settings.SimulationSettings;

/**
 * The one host a run's connections may reach: the host of the base URL the lab checked (base.url), by each address it
 * has. Read at the first connection, not at the agent's start: the training run sets base.url after. A JVM without
 * base.url (none the lab starts) is not guarded.
 */
public final class CheckedHost {

    private static volatile Allowed allowed;
    private static final Map<String, LongAdder> REFUSALS = new ConcurrentHashMap<>();

    private CheckedHost() {
    }

    /** The checked host, its name and its addresses. */
    private record Allowed(String host, Set<InetAddress> addresses) {

        boolean admits(SocketAddress remote) {
            if (!(remote instanceof InetSocketAddress address)) {
                return false; // a Unix socket, say: not the checked host
            }
            return address.isUnresolved() ? address.getHostString().equalsIgnoreCase(host) : addresses.contains(address.getAddress());
        }
    }

    /** Null when remote is the checked host's (or nothing was checked); otherwise the refusal to fail its connect with, counted. */
    public static ConnectException refusal(SocketAddress remote) {
        Allowed checked = allowed();
        if (checked == null || checked.admits(remote)) {
            return null;
        }
        String where = remote instanceof InetSocketAddress a ? (a.isUnresolved() ? a.getHostString() : a.getAddress().getHostAddress()) + ":" + a.getPort()
                : String.valueOf(remote);
        REFUSALS.computeIfAbsent(where, w -> new LongAdder()).increment();
        return new ConnectException("latency-lab refused a connection to " + where + ": not the checked host " + checked.host());
    }

    /** The connections refused so far, by host:port, in order; empty when none was. */
    public static Map<String, Long> refusals() {
        return REFUSALS.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().sum(), Long::sum, TreeMap::new));
    }

    /** The checked host of the words a problem uses; null when the JVM has no base.url. */
    public static String host() {
        Allowed checked = allowed();
        return checked == null ? null : checked.host();
    }

    private static Allowed allowed() {
        Allowed checked = allowed;
        if (checked == null) {
            String url = System.getProperty(SimulationSettings.BASE_URL);
            if (url == null) {
                return null;
            }
            String host = URI.create(url).getHost();
            try {
                checked = new Allowed(host, Set.copyOf(Arrays.asList(InetAddress.getAllByName(host))));
            }
            catch (UnknownHostException e) {
                checked = new Allowed(host, Set.of()); // the preflight has said so already; nothing is admitted
            }
            allowed = checked;
        }
        return checked;
    }
}
