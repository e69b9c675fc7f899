package dev.latencylab.lab.flow;

import dev.latencylab.lab.live.LiveView;

/** Whether and how a flow's work is watched live, as the command's options say. */
public interface LiveStart {

    /** Whether a run is watched: not without a live view, nor where it has none (notHere: why, or null). */
    boolean watches(String notHere);

    /** The view of the work titled title, started; null where there is none (notHere: why not, said once; else null). */
    LiveView start(String title, String notHere);
}
