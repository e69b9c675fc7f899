package dev.latencylab.lab.run;

import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.targets.Target;

/**
 * What watches runs one after the other as they go (a sweep's points, a capacity search's ladders: the live view):
 * each run as it starts, its line as it ends.
 */
public interface RunWatch {

    /** Nothing watches: the runs write no live seconds. */
    RunWatch NONE = new RunWatch() {
        @Override
        public void starting(String label, Target target, Double modelBoundPerSecond, RunFolder folder) {
        }

        @Override
        public void ended(String line) {
        }
    };

    /**
     * A run starts, labelled as the console labels it ("[2/8] ...", "ladder 2: ..."), of target, whose model bounds it
     * at modelBoundPerSecond (null: no pool), in folder.
     */
    void starting(String label, Target target, Double modelBoundPerSecond, RunFolder folder);

    /** The run under way ended, said in this line. */
    void ended(String line);
}
