package dev.latencylab.lab.layout;

import java.nio.file.Path;

/**
 * The layout of a footprint experiment's folder, its one owner: footprint.json (settings, every measurement, the fits),
 * measurements.csv, the page and its charts, and each target's log under logs/.
 */
public record FootprintFolder(Path dir) {

    public static final String FOOTPRINT_FILE = "footprint.json";

    public Path footprintFile() {
        return dir.resolve(FOOTPRINT_FILE);
    }

    public Path measurementsCsv() {
        return dir.resolve("measurements.csv");
    }

    public Path page() {
        return dir.resolve("index.html");
    }

    public Path charts() {
        return dir.resolve("charts");
    }

    /** A chart's PNG by name, e.g. rss-in-flight. */
    public Path chartPng(String name) {
        return charts().resolve(name + ".png");
    }

    /** The log of the target one measurement started, e.g. logs/webflux-idle-n1000-r2.log. */
    public Path targetLog(String measurement) {
        return dir.resolve("logs").resolve(measurement + ".log");
    }
}
