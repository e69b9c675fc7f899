package dev.latencylab.lab.cli;

import java.io.PrintWriter;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import dev.latencylab.lab.flow.LiveStart;
import dev.latencylab.lab.live.LiveView;

/** The live view of a run while it lasts (see {@link LiveView}): on by default, on a port of its own choosing. */
final class LiveOptions implements LiveStart {

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--live-port", paramLabel = "PORT", description = "The live view's port on 127.0.0.1: its page, its events and "
            + "its Prometheus metrics (default: 0, a free port, said in the first lines).")
    int port;

    @Option(names = "--no-live", description = "No live view.")
    boolean off;

    /** Whether a run is watched: not with --no-live, nor where it has no view (notHere: why, or null). */
    @Override
    public boolean watches(String notHere) {
        return !off && notHere == null;
    }

    /**
     * The port given, refused before any folder is made or target started where it is out of range or taken now (the
     * view itself starts later, once there is a run to follow).
     */
    void check() {
        if (off) {
            return;
        }
        inRange();
        if (port == 0) {
            return;
        }
        try (java.net.ServerSocket free = new java.net.ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
            // free now: the view binds it again when it starts (another process could take it between; then it says so)
        }
        catch (java.io.IOException e) {
            throw LiveView.cannotListen(port, e);
        }
    }

    private void inRange() {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--live-port %d: give a port from 1 to 65535, or 0 for a free one".formatted(port));
        }
    }

    /**
     * The view of the work titled title (a run, a sweep), started, to be told which run to follow; null with --no-live,
     * or where the work has none (notHere: why, said once).
     */
    @Override
    public LiveView start(String title, String notHere) {
        PrintWriter out = command.commandLine().getOut();
        if (off) {
            return null;
        }
        if (notHere != null) {
            out.println("latency-lab: no live view: " + notHere);
            return null;
        }
        inRange();
        return LiveView.start(port, title, out, command.root().userObject() instanceof LatencyLab lab ? lab.statusLine : null);
    }
}
