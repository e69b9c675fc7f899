package dev.latencylab.load.sample;

import dev.latencylab.load.result.Result;

/** Mean and max of a sampled value. Thread-safe. */
public final class Series {

    private long count;
    private double sum;
    private double max = Double.NaN;

    public synchronized void add(double value) {
        if (Double.isNaN(value)) {
            return;
        }
        count++;
        sum += value;
        max = Double.isNaN(max) ? value : Math.max(max, value);
    }

    public synchronized long count() {
        return count;
    }

    public synchronized Double mean() {
        return count == 0 ? null : sum / count;
    }

    public synchronized Double max() {
        return count == 0 ? null : max;
    }

    public Result.Stat stat() {
        return new Result.Stat(mean(), max(), count());
    }
}
