package dev.latencylab.lab.layout;

import java.nio.file.Path;
import java.util.List;

/**
 * The layout of a capacity search's folder, its one owner: capacity.json, levels.csv, the hockey-stick chart and
 * round-&lt;k&gt;/ (a {@link RunFolder} each ladder). A folder of several searches holds their common chart by the same name.
 */
public record SearchFolder(Path dir) {

    public static final String CAPACITY_FILE = "capacity.json";

    public Path capacityFile() {
        return dir.resolve(CAPACITY_FILE);
    }

    /** The search's levels, one row each. */
    public Path levelsCsv() {
        return dir.resolve("levels.csv");
    }

    public Path chartSvg() {
        return dir.resolve("hockey-stick.svg");
    }

    public Path chartPng() {
        return dir.resolve("hockey-stick.png");
    }

    /** The files of the chart, as Capacity.draw writes them. */
    public List<Path> charts() {
        return List.of(chartSvg(), chartPng());
    }

    /** Ladder k's run folder (capacity.json records each as its Round.folder). */
    public RunFolder round(int k) {
        return new RunFolder(dir.resolve("round-" + k));
    }
}
