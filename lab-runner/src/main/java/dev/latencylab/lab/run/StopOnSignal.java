package dev.latencylab.lab.run;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What a command does when a signal ends the runner (Ctrl-C, SIGTERM): stop what it started, wait until the command
 * has finished its own writes (records, page), then say what was kept. Open it before anything starts; closing it
 * (the command is done) removes the hook, so a normal exit says nothing.
 */
public final class StopOnSignal implements AutoCloseable {

    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;

    private StopOnSignal(Runnable stop, String message) {
        hook = new Thread(() -> {
            stop.run();
            try {
                finished.await(60, TimeUnit.SECONDS);
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            System.err.println("\nlatency-lab: " + message);
        });
    }

    private static StopOnSignal install(Runnable stop, String message) {
        StopOnSignal s = new StopOnSignal(stop, message);
        Runtime.getRuntime().addShutdownHook(s.hook);
        return s;
    }

    /** The one hook of every command that runs targets (run, sweep, capacity): first what it must note, then Gatling and every target end. */
    public static StopOnSignal endingRun(GatlingLauncher gatling, Runnable first, String message) {
        return endingTargets(() -> {
            first.run();
            gatling.stop();
        }, message);
    }

    /** The hook of a command that runs targets without Gatling (footprint): first what it must note, then every target ends. */
    public static StopOnSignal endingTargets(Runnable first, String message) {
        return install(() -> {
            first.run();
            TargetProcess.closeAll();
        }, message);
    }

    @Override
    public void close() {
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (IllegalStateException shuttingDown) {
            // the hook runs now: it waited for this
        }
    }
}
