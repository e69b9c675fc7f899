package dev.latencylab.contract;

import java.util.concurrent.CompletableFuture;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Ends this server when the process that started it is gone: ./lab passes its pid as {@value #PROPERTY}, and a lab
 * killed with SIGKILL (which it cannot catch, so it cannot stop its targets) leaves no target behind. Without the
 * property (a server started by hand, compose, Kubernetes) nothing is watched.
 */
public final class ParentWatch {

    public static final String PROPERTY = "latency-lab.parent-pid";
    private static final Log LOG = LogFactory.getLog(ParentWatch.class);

    ParentWatch(long parentPid) {
        CompletableFuture<?> gone = ProcessHandle.of(parentPid).map(ProcessHandle::onExit)
                .orElse(CompletableFuture.completedFuture(null));
        gone.thenRun(() -> {
            LOG.warn("the process that started this server (pid " + parentPid + ") is gone: stopping");
            // a thread of its own: System.exit waits for the shutdown hooks, which must not wait for this one
            new Thread(() -> System.exit(0), "parent-gone").start();
        });
    }
}
