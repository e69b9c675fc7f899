package dev.latencylab.load.sample;

/** Where the run is when a sample is taken: the sampler stamps each sample with it (RunRecorder keeps it). */
public interface RunProgress {

    /** Seconds since the run started, on the run's clock. */
    double secondsSinceStart();

    /** Virtual users active now. */
    int activeUsers();
}
