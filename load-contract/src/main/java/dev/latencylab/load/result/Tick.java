package dev.latencylab.load.result;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One sample, one row of the run's timeline: its components are the timeline's columns, in order (a row of a table,
 * as a CSV row is). Server values are NaN when the target did not answer in time or has no such metric.
 */
public record Tick(double second, int activeUsers, double injectorCpu, double machineCpu, double injectorOpenFiles,
        double serverCpu, double serverLiveThreads, double serverBusyThreads, double serverHeapUsedBytes,
        double serverOpenFiles, double serverWaitingRequests, double machineSteal, double loadAverage,
        double serverPoolActive, double serverPoolPending) {

    /** Read once: a timeline converts every cell of every row through them. */
    private static final RecordComponent[] COMPONENTS = Tick.class.getRecordComponents();
    private static final java.lang.reflect.Constructor<Tick> CANONICAL = canonical();

    /** The timeline's columns (result.json's timeline.columns): these components' names, in order. */
    public static final List<String> COLUMNS = Arrays.stream(COMPONENTS).map(RecordComponent::getName).toList();

    /** This sample as a timeline row: NaN (no reading) as null, fractions to three decimals. */
    public List<Object> row() {
        return row(COLUMNS);
    }

    /** The same, of these columns only (a timeline written before some of them: its own columns, in its order). */
    public List<Object> row(List<String> columns) {
        List<Object> row = new ArrayList<>();
        for (String column : columns) {
            Object v = read(COMPONENTS[COLUMNS.indexOf(column)]);
            row.add(v instanceof Double d ? (d.isNaN() ? null : Math.round(d * 1000) / 1000.0) : v);
        }
        return row;
    }

    /**
     * A timeline row as the sample it records: null, or a column the timeline does not have (one written before
     * it), as no reading (NaN; 0 users). Columns that are not a Tick's are refused: a file of another version.
     */
    public static Tick of(List<String> columns, List<Object> row) {
        if (!COLUMNS.containsAll(columns)) {
            throw new IllegalArgumentException("timeline columns %s are not all a sample's %s".formatted(columns, COLUMNS));
        }
        Object[] values = new Object[COMPONENTS.length];
        for (int i = 0; i < COMPONENTS.length; i++) {
            int at = columns.indexOf(COMPONENTS[i].getName());
            Number n = at < 0 ? null : (Number) row.get(at);
            values[i] = COMPONENTS[i].getType() == int.class ? (Object) (n == null ? 0 : n.intValue())
                    : (Object) (n == null ? Double.NaN : n.doubleValue());
        }
        try {
            return CANONICAL.newInstance(values);
        }
        catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same sample at another second, with the injectors' users, CPU and open files: a row of a merged run. */
    public Tick withInjectors(double at, int users, double cpu, double openFiles) {
        return new Tick(at, users, cpu, machineCpu, openFiles, serverCpu, serverLiveThreads, serverBusyThreads, serverHeapUsedBytes,
                serverOpenFiles, serverWaitingRequests, machineSteal, loadAverage, serverPoolActive, serverPoolPending);
    }

    private static java.lang.reflect.Constructor<Tick> canonical() {
        try {
            return Tick.class.getDeclaredConstructor(Arrays.stream(COMPONENTS).map(RecordComponent::getType).toArray(Class<?>[]::new));
        }
        catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    private Object read(RecordComponent c) {
        try {
            return c.getAccessor().invoke(this);
        }
        catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
