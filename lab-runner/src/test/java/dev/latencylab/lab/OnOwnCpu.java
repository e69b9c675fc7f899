package dev.latencylab.lab;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class whose assertions a busy CPU could change (a measurement: a capacity, a bound the verdict names): each
 * test takes a CPU of its own ({@link OwnCpu}, a parameter) and starts its processes on it alone (taskset), as a user
 * keeps a run off the others. Failsafe runs these classes after all others, nothing else beside them, one test per CPU
 * (lab-runner/pom.xml, the execution "own-cpu"): a run pinned to one CPU is judged over that CPU (see MachineBoundIT).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(OnOwnCpu.TAG)
@ExtendWith(OwnCpu.Lender.class)
public @interface OnOwnCpu {

    /** The tag failsafe's executions select these classes by. */
    String TAG = "own-cpu";
}
