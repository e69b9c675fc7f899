package dev.latencylab.lab.page;

import static dev.latencylab.lab.page.Html.esc;
import static dev.latencylab.lab.page.Html.f0;
import static dev.latencylab.lab.page.Html.td;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import dev.latencylab.load.Result;
import dev.latencylab.load.ResultFile;
import dev.latencylab.lab.format.Figures;
import dev.latencylab.lab.layout.RunFolder;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.summary.Spread;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;
import dev.latencylab.lab.sweep.SweepPlan;

/**
 * A sweep page's HTML (index.html): its verdict, table and charts, each sweep's plan, machine and ceilings, the runs'
 * files and their targets' JVM events; ComparisonPage draws the charts it shows and writes it.
 */
final class SweepPageHtml {

    private SweepPageHtml() {
    }

    /**
     * What each run's target JVM recorded (GC pauses, safepoints, pinned virtual threads), for the runs that have it; a
     * sweep from before JVM events has none, and says so.
     */
    private static void jvmEvents(StringBuilder h, List<SweepSource> sources) {
        h.append("<h2>The targets' JVMs</h2>\n");
        for (SweepSource source : sources) {
            List<Summary.RunJvm> runs = Summary.jvmEvents(source.sweep());
            String which = source.label() == null ? "This sweep's" : "Sweep <code>" + esc(source.label()) + "</code>'s";
            if (runs.isEmpty()) {
                h.append("<p>").append(which).append(" runs hold no JVM events: recorded before they were, or with --no-jvm-events.</p>\n");
                continue;
            }
            h.append("<p>").append(which).append(" runs, from each target's flight recording, within the run:</p>\n<div class=scroll><table>\n")
                    .append("<tr><th class=l>run<th>GC pauses<th>GC ms<th>longest ms<th>safepoints ms<th>pinned<th class=l>pinned most at</tr>\n");
            for (Summary.RunJvm e : runs) {
                Result.Jvm j = e.jvm();
                h.append("<tr>").append(td(e.run(), true)).append(td("%,d".formatted(j.gc().count()), false))
                        .append(td("%,.1f".formatted(j.gc().totalMs()), false)).append(td("%,.1f".formatted(j.gc().longestMs()), false))
                        .append(td("%,.1f".formatted(j.safepoints().totalMs()), false)).append(td("%,d".formatted(j.pinned().count()), false))
                        .append(td(j.pinned().topStack().isEmpty() ? "" : j.pinned().topStack().get(0), true)).append("</tr>\n");
            }
            h.append("</table></div>\n");
        }
    }

    static String html(SweepFolder out, List<SweepSource> sources, List<String> charts) {
        String title = sources.size() == 1 ? out.name() : sources.stream().map(SweepSource::label).collect(Collectors.joining(" and "));
        StringBuilder h = new StringBuilder();
        h.append(Html.head("latency-lab sweep " + title)).append("<h1>latency-lab sweep <code>").append(esc(title)).append("</code></h1>\n");
        for (SweepSource s : sources) {
            int planned = s.planned();
            if (s.runs().size() < planned) {
                // stopped (a signal) or still under way: the page must not read as the sweep's whole answer
                h.append("<p><strong>Incomplete%s:</strong> %d of the %d runs its plan holds have a record (the sweep was stopped, "
                        .formatted(s.label() == null ? "" : " (" + esc(s.label()) + ")", s.runs().size(), planned)
                        + "or is under way); what follows is those runs only. The same command with <code>--name %s</code> finishes it.</p>\n"
                        .formatted(esc(s.sweep().name())));
            }
        }
        // the answer first: what bounded each target, in words made from the points below
        h.append("<h2>Verdict</h2>\n");
        for (SweepSource s : sources) {
            if (sources.size() > 1) {
                h.append("<h3>").append(esc(s.label())).append("</h3>\n");
            }
            h.append(Verdict.html(s.points()));
        }
        h.append("""
                <h2>How to read this page</h2>
                <p>Each chart puts the number of users on the x axis and one measure of every target on the y axis, one
                colour and marker per target (the same on every page); every chart of one latency has the same x axis. A
                marker is the median of the point's runs and the capped bar through it their range, lowest to highest
                (the table gives the number of runs). On the response-time charts, a cross on the grey line of Gatling's
                connect timeout is a percentile made of requests that never connected and failed there: a count of
                failures, not a wait for the server. The dashed grey
                lines are the queueing model: the offered load N/(L+Z), a thread pool's bound T/L, and past a pool's
                knee N = T(L+Z)/L its response time N&middot;L/T &minus; Z; these hold on any machine. The dotted line
                in a target's colour is this machine's ceiling for it: the goodput at which injector and server
                together would use every core, from the CPU an OK response cost them (see &ldquo;Machine&rdquo;); it
                holds on this machine only, and is a lower bound (the CPU per response falls as the load grows); one
                below what the same stack served with a larger pool is not drawn (&ldquo;Machine&rdquo; says which). A point on a model line is explained by it; a point off it is a finding, and the
                table's flags say when a number is not the server's alone (the machine's CPU, its ceiling, runs that
                disagree, connections, open files, another process; see docs/sweeps.md, &ldquo;Flags&rdquo;). Goodput counts
                OK responses per second on the plateau, while all users are active; the table also gives all
                completions, failed ones included. Response times are over the whole run. CPU is a percentage of all
                the machine's cores. A line above a chart's top is named in its title.</p>
                <p>Open-model points (<code>--rates</code>) have charts of their own, against the offered rate: their
                requests arrive at that rate whatever the server does, and each is timed from when it was due, so a
                queue anywhere (server or injector) shows in full. Their goodput, completions and percentiles are those
                of the arrivals due while the rate was held.</p>
                """);
        if (sources.stream().anyMatch(s -> !ComparisonPage.modelled(s.points()))) {
            h.append("<p>A service of yours has no model (its path names no latency): its dashed line is the bound of a pool ")
                    .append("its own metrics showed full, its size over the time one was held, from the first load it was full at ")
                    .append("(docs/your-service.md).</p>\n");
        }
        if (sources.size() > 1) {
            h.append("<p>This page shows several sweeps: a series is named <code>target @ sweep</code>, the first sweep's ")
                    .append("lines solid, the others' dashed or dotted. Each sweep's machine is described below.</p>\n");
        }
        h.append("<h2>Charts</h2>\n");
        for (String c : charts) {
            h.append("<img src=\"charts/").append(c).append(".svg\" alt=\"").append(c).append("\">\n");
        }
        h.append("<h2>Points</h2>\n<p>Each cell: median of the runs, and (lowest&ndash;highest) when there were several.</p>\n")
                .append("<div class=scroll><table><tr><th class=l>target</th><th>users</th><th>latency ms</th><th>runs</th><th>goodput req/s</th>")
                .append("<th>completions req/s</th><th>model req/s</th><th>machine ceiling req/s</th><th>p50 ms</th><th>p95 ms</th>")
                .append("<th>p99 ms</th><th>max ms</th><th>KO %</th><th>server threads</th><th>server CPU</th><th>injector CPU</th>")
                .append("<th>machine CPU</th><th>CPU ms per OK response (server + injector)</th><th>steal</th>")
                .append("<th class=l>connections</th><th class=l>flags</th><th class=l>files</th></tr>\n");
        for (SweepSource source : sources) {
            for (Summary.PointRow r : source.points()) {
                h.append(r.done() ? "<tr>" : "<tr class=failed>").append(td(source.series(r.identity().target()), true))
                        .append(td(r.identity().rate() != null
                                ? "open: " + Figures.rate(r.identity().rate()) + "/s" : "%,d".formatted(r.identity().users()), false))
                        .append(td(String.valueOf(r.identity().latencyMs()), false))
                        .append(td(r.outcome().runs() + (r.outcome().failedRuns() > 0 ? " (+" + r.outcome().failedRuns() + " failed)" : ""), false));
                if (r.done()) {
                    h.append(spread(r.rates().goodput(), "%,.0f")).append(spread(r.rates().throughput(), "%,.0f"))
                            .append(td(f0(r.model().modelThroughput()), false)).append(td(f0(r.notes().machineCeiling()), false))
                            .append(spread(r.latency().p50Ms(), "%,.0f")).append(spread(r.latency().p95Ms(),
                                    "%,.0f")).append(spread(r.latency().p99Ms(), "%,.0f"))
                            .append(td(f0(r.latency().maxMs()), false)).append(td("%.2f".formatted(r.requests().koPercent()), false))
                            .append(td(f0(r.threads().serverPeakThreads()), false)).append(spread(r.cpu().serverCpu().times(100), "%.0f%%"))
                            .append(spread(r.cpu().injectorCpu().times(100), "%.0f%%")).append(spread(r.cpu().machineCpu().times(100), "%.0f%%"))
                            .append(td(r.cpu().serverCpuMsPerRequest() == null || r.cpu().injectorCpuMsPerRequest() == null ? ""
                                    : "%.3f + %.3f".formatted(r.cpu().serverCpuMsPerRequest(), r.cpu().injectorCpuMsPerRequest()), false))
                            .append(td(r.cpu().machineSteal() == null ? "" : "%.1f%%".formatted(100 * r.cpu().machineSteal()), false))
                            .append(td(r.pool().connections() + (r.pool().connectionSettings().isEmpty()
                                    ? "" : ", " + r.pool().connectionSettings()), true))
                            .append("<td class=flags>").append(esc(r.notes().flags())).append("</td>");
                }
                else {
                    h.append("<td colspan=17 class=flags>FAILED: ").append(esc(r.outcome().reason())).append("</td>");
                }
                h.append("<td class=l>").append(files(out, source, r)).append("</td></tr>\n");
            }
        }
        h.append("</table></div>\n<p>All numbers: ");
        for (SweepSource source : sources) {
            Path dir = out.dir().toAbsolutePath().normalize().relativize(source.sweep().dir().toAbsolutePath().normalize());
            String prefix = dir.toString().isEmpty() ? "" : dir + "/";
            h.append("<a href=\"").append(esc(prefix)).append("summary.csv\">").append(esc(prefix)).append("summary.csv</a> ")
                    .append("(points) and <a href=\"").append(esc(prefix)).append("runs.csv\">").append(esc(prefix))
                    .append("runs.csv</a> (runs); ");
        }
        h.append("each run's folder under <code>points/</code> holds what was kept of it (result.json, point.json, and in a ")
                .append("sweep of your own the Gatling report and the logs of target and simulation).</p>\n");
        for (SweepSource source : sources) {
            machine(h, source);
        }
        jvmEvents(h, sources);
        h.append("<h2>Settings</h2>\n");
        for (SweepSource source : sources) {
            if (source.plan() != null) {
                h.append("<p>").append(source.label() == null ? "The sweep" : "Sweep <code>" + esc(source.label()) + "</code>")
                        .append(", as <code>sweep.json</code> records it (plan, machine, versions):</p><pre>")
                        .append(esc(text(source.sweep().planFile()))).append("</pre>\n");
            }
            List<String> others = fromOtherSweeps(source);
            if (!others.isEmpty()) {
                h.append("<p>Points on this page that are not in that plan (added from another sweep), with their own settings ")
                        .append("from their result files:</p>\n<ul>\n");
                others.forEach(o -> h.append("<li>").append(esc(o)).append("</li>\n"));
                h.append("</ul>\n");
            }
        }
        return h.append("</body></html>\n").toString();
    }

    /** The machine a sweep ran on, its fingerprint and the ceiling of each target on it. */
    private static void machine(StringBuilder h, SweepSource source) {
        h.append("<h2>Machine").append(source.label() == null ? "" : " of <code>" + esc(source.label()) + "</code>").append("</h2>\n");
        Machine.Description m = source.plan() == null ? null : source.plan().machine();
        if (m != null) {
            Machine.CpuProbe probe = m.cpuProbe() == null ? new Machine.CpuProbe(null, null) : m.cpuProbe();
            String targetsJdk = source.plan().plan().jdk() == null ? "" : "; the targets on --jdk " + source.plan().plan().jdk();
            h.append("<p>").append(esc("%s, %d cores, %s GiB, %s; JDK %s%s.".formatted(m.cpu(), m.cores(), m.memoryGiB(), m.os(), m.jdk(),
                    targetsJdk)))
                    .append(" CPU probe (").append(esc(probe.workload() == null ? "not recorded" : probe.workload())).append("): <b>")
                    .append(esc(probe.mibPerSecond() == null ? "not recorded" : String.valueOf(probe.mibPerSecond()))).append(" MiB/s</b> at the start");
            Spread probes = Spread.of(source.runs().stream().map(r -> r.cpu().cpuProbe()).toList());
            if (probes.median() != null) {
                h.append(esc(", %s MiB/s before each run".formatted(probes.format("%,.0f"))));
            }
            h.append("; load average at the start ").append(m.loadAverageAtStart() != null
                    ? "%.2f".formatted(m.loadAverageAtStart()) : "not recorded");
            Spread steal = Spread.of(source.runs().stream().map(r -> r.cpu().machineSteal()).toList()).times(100);
            if (steal.median() != null) {
                h.append(esc("; steal on the plateaus %s".formatted(steal.format("%.1f%%"))));
            }
            h.append(".</p>\n");
        }
        List<String> without = source.points().stream().map(r -> r.identity().target()).distinct()
                .filter(t -> !source.ceilings().containsKey(t)).toList();
        String none = ("a target has none when no finished run of it had its pool not the limit and no other process busy on "
                + "the machine, or when its busiest such run served under a quarter of the ceiling it would imply: at so light a "
                + "load fixed costs weigh on every response");
        if (source.ceilings().isEmpty()) {
            h.append("<p>No machine ceiling: ").append(esc(none)).append(".</p>\n");
            return;
        }
        h.append("<p>This machine's ceiling per target: its cores over the CPU time one OK response cost server and ")
                .append("injector together, at the target's busiest point whose pool was not the limit and beside which no other ")
                .append("process was busy (median of its runs). The CPU per response falls as the load grows, so measured below ")
                .append("the machine's limit it is a lower bound. Points whose model throughput reaches 80% of it are flagged ")
                .append("near-machine-ceiling.").append(without.isEmpty() ? "" : esc(" None for " + String.join(", ", without) + ": " + none + "."))
                .append("</p>\n<ul>\n");
        source.ceilings().values().forEach(c -> h.append("<li>").append(esc(("%s: %.3f ms server + %.3f ms injector = %.3f ms of CPU "
                + "per OK response, measured at %,d users: %d cores / %.3f ms = %,.0f req/s").formatted(c.target(), c.serverCpuMsPerRequest(),
                c.injectorCpuMsPerRequest(), c.cpuMsPerRequest(), c.fromUsers(), c.cores(), c.cpuMsPerRequest(),
                c.requestsPerSecond()))).append(source.notDrawn().containsKey(c.target())
                        ? esc(". Not drawn on the charts: " + source.notDrawn().get(c.target()) + ".") : "")
                .append("</li>\n"));
        h.append("</ul>\n");
    }

    private static String spread(Spread s, String pattern) {
        if (s.median() == null) {
            return "<td></td>";
        }
        String range = s.runs() < 2 ? "" : " <span class=range>(" + esc(pattern.formatted(s.min())) + "&ndash;"
                + esc(pattern.formatted(s.max())) + ")</span>";
        return "<td>" + esc(pattern.formatted(s.median())) + range + "</td>";
    }

    /** Links to what each run of a point kept, relative to the page. */
    private static String files(SweepFolder out, SweepSource source, Summary.PointRow r) {
        List<String> runs = new ArrayList<>();
        for (Summary.RunRow run : source.runs()) {
            if (!run.pointId().equals(r.identity().point())) {
                continue;
            }
            RunFolder folder = source.sweep().point(run.identity().point());
            List<String> links = new ArrayList<>();
            for (Path f : List.of(folder.resultFile(), folder.pointRecord(), folder.reportPage())) {
                if (Files.isRegularFile(f)) {
                    String label = f.equals(folder.reportPage()) ? "report" : f.getFileName().toString();
                    links.add("<a href=\"" + esc(out.dir().toAbsolutePath().normalize().relativize(f.toAbsolutePath().normalize())
                            .toString()) + "\">" + label + "</a>");
                }
            }
            runs.add("run " + run.identity().run() + (run.done() ? "" : " (failed)") + ": " + String.join(" ", links));
        }
        return String.join("<br>", runs);
    }

    /** A file as it was written (sweep.json, shown on the page as the sweep recorded it). */
    private static String text(Path file) {
        try {
            return Files.readString(file).strip();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The points outside a sweep's plan, each with the settings its result file records. */
    private static List<String> fromOtherSweeps(SweepSource source) {
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
