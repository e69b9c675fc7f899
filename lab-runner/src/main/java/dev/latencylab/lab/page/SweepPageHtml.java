package dev.latencylab.lab.page;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.summary.Spread;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;
import dev.latencylab.lab.sweep.SweepPlan;

/**
 * A sweep page's HTML (index.html, from sweep.jte): its verdict, table and charts, each sweep's plan, machine and
 * ceilings, the runs' files and their targets' JVM events; SweepCharts draws the charts it shows, SweepPage writes it. What
 * the template shows that takes more than a call is computed here.
 */
final class SweepPageHtml {

    private SweepPageHtml() {
    }

    static String html(SweepFolder out, List<SweepSource> sources, List<String> charts) {
        return Templates.render("sweep.jte", Map.of("out", out, "sources", sources, "charts", charts));
    }

    /** The page's title: the sweep's name, or the labels of the sweeps it shows. */
    static String title(SweepFolder out, List<SweepSource> sources) {
        return sources.size() == 1 ? out.name() : sources.stream().map(SweepSource::label).collect(Collectors.joining(" and "));
    }

    /** A cell of the points' table: the median of the runs, and their lowest and highest when there were several. */
    record Cell(String median, String min, String max) {
    }

    /** The cell of a spread (null: none measured). */
    static Cell cell(Spread s, String pattern) {
        if (s.median() == null) {
            return null;
        }
        return s.runs() < 2 ? new Cell(pattern.formatted(s.median()), null, null)
                : new Cell(pattern.formatted(s.median()), pattern.formatted(s.min()), pattern.formatted(s.max()));
    }

    /** A link of the page, relative to it. */
    record Link(String href, String label) {
    }

    /** What one run of a point kept: "run 2 (failed): " and its files. */
    record RunFiles(String label, List<Link> links) {
    }

    /** Links to what each run of a point kept, relative to the page. */
    static List<RunFiles> files(SweepFolder out, SweepSource source, Summary.PointRow r) {
        List<RunFiles> runs = new ArrayList<>();
        for (Summary.RunRow run : source.runs()) {
            if (!run.pointId().equals(r.identity().point())) {
                continue;
            }
            RunFolder folder = source.sweep().point(run.identity().point());
            List<Link> links = new ArrayList<>();
            for (Path f : List.of(folder.resultFile(), folder.pointRecord(), folder.reportPage())) {
                if (Files.isRegularFile(f)) {
                    links.add(new Link(out.dir().toAbsolutePath().normalize().relativize(f.toAbsolutePath().normalize()).toString(),
                            f.equals(folder.reportPage()) ? "report" : f.getFileName().toString()));
                }
            }
            runs.add(new RunFiles("run " + run.identity().run() + (run.done() ? "" : " (failed)") + ": ", links));
        }
        return runs;
    }

    /** Where a sweep's CSV files are, from the page's folder: "" when the page is the sweep's own. */
    static String prefix(SweepFolder out, SweepSource source) {
        Path dir = out.dir().toAbsolutePath().normalize().relativize(source.sweep().dir().toAbsolutePath().normalize());
        return dir.toString().isEmpty() ? "" : dir + "/";
    }

    /** The machine a sweep ran on, in the parts its paragraph shows (each optional part "" when not recorded). */
    record MachineLine(String described, String workload, String mibPerSecond, String beforeEachRun, String loadAverage, String steal) {
    }

    /** The machine of a sweep's plan; null for a folder without one. */
    static MachineLine machineLine(SweepSource source) {
        Machine.Description m = source.plan() == null ? null : source.plan().machine();
        if (m == null) {
            return null;
        }
        Machine.CpuProbe probe = m.cpuProbe() == null ? new Machine.CpuProbe(null, null) : m.cpuProbe();
        String targetsJdk = source.plan().plan().jdk() == null ? "" : "; the targets on --jdk " + source.plan().plan().jdk();
        Spread probes = Spread.of(source.runs().stream().map(r -> r.cpu().cpuProbe()).toList());
        Spread steal = Spread.of(source.runs().stream().map(r -> r.cpu().machineSteal()).toList()).times(100);
        return new MachineLine("%s, %d cores, %s GiB, %s; JDK %s%s.".formatted(m.cpu(), m.cores(), m.memoryGiB(), m.os(), m.jdk(), targetsJdk),
                probe.workload() == null ? "not recorded" : probe.workload(),
                probe.mibPerSecond() == null ? "not recorded" : String.valueOf(probe.mibPerSecond()),
                probes.median() == null ? "" : ", %s MiB/s before each run".formatted(probes.format("%,.0f")),
                m.loadAverageAtStart() != null ? "%.2f".formatted(m.loadAverageAtStart()) : "not recorded",
                steal.median() == null ? "" : "; steal on the plateaus %s".formatted(steal.format("%.1f%%")));
    }

    /** Why a target has no machine ceiling. */
    static final String NO_CEILING = "a target has none when no finished run of it had its pool not the limit and no other process busy on "
            + "the machine, or when its busiest such run served under a quarter of the ceiling it would imply: at so light a "
            + "load fixed costs weigh on every response";

    /** The targets of a sweep's points without a machine ceiling. */
    static List<String> withoutCeiling(SweepSource source) {
        return source.points().stream().map(r -> r.identity().target()).distinct().filter(t -> !source.ceilings().containsKey(t)).toList();
    }

    /** A file as it was written (sweep.json, shown on the page as the sweep recorded it). */
    static String text(Path file) {
        try {
            return Files.readString(file).strip();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The points outside a sweep's plan, each with the settings its result file records. */
    static List<String> fromOtherSweeps(SweepSource source) {
        SweepPlan plan = source.plan() == null ? null : source.plan().plan();
        List<String> others = new ArrayList<>();
        for (Summary.RunRow r : source.runs()) {
            boolean planned = plan != null && plan.matrix().targets().contains(r.identity().target())
                    && (r.identity().rate() != null ? plan.open().rates().contains(r.identity().rate())
                            : plan.matrix().users().contains(r.identity().users()))
                    && plan.matrix().latenciesMs().contains(r.identity().latencyMs());
            Path result = source.sweep().point(r.identity().point()).resultFile();
            if (!planned && r.identity().rate() != null && Files.isRegularFile(result)) {
                others.add("%s at %s arrivals/s, %d ms (run %d): open model, level %d s".formatted(r.identity().target(),
                        Figures.rate(r.identity().rate()),
                        r.identity().latencyMs(), r.identity().run(), ResultFile.read(result).parameters().injection().levelSeconds()));
            }
            else if (!planned && Files.isRegularFile(result)) {
                Result.Parameters p = ResultFile.read(result).parameters();
                others.add("%s at %,d users, %d ms (run %d): ramp %d s, %d requests per user, think %d-%d ms, connections %s, %s"
                        .formatted(r.identity().target(), r.identity().users(), r.identity().latencyMs(), r.identity().run(),
                                p.pacing().rampSeconds(), p.pacing().repeat(), p.pacing().thinkMinMs(),
                                p.pacing().thinkMaxMs(), p.connections(),
                                r.pool().connectionSettings().isEmpty() ? "default server settings" : r.pool().connectionSettings()));
            }
        }
        return others;
    }
}
