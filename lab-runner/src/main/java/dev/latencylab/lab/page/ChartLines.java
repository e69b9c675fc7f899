package dev.latencylab.lab.page;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import dev.latencylab.load.model.QueueingModel;
import dev.latencylab.lab.summary.ServiceModel;
import dev.latencylab.lab.summary.Spread;
import dev.latencylab.lab.summary.Stages;
import dev.latencylab.lab.summary.Summary;
import dev.latencylab.lab.sweep.Sweep;
import dev.latencylab.lab.sweep.SweepPlan;

/**
 * The lines a chart draws beside its data: the queueing model's (dashed greys), a service's pool bounds from its own
 * metrics, each target's machine ceiling (dotted, in its colour), each cut at the chart's top or named in its title
 * when wholly above it; and where an axis ends.
 */
final class ChartLines {

    private ChartLines() {
    }

    /** A target's machine ceiling: a dotted horizontal line in its colour, or named in the title when above the top. */
    static void addCeiling(XYChart chart, String name, Color color, int maxUsers, double ceiling, double top,
            List<String> offChart) {
        if (ceiling > top || maxUsers == 0) {
            offChart.add(name + " = " + "%,.0f".formatted(ceiling));
            return;
        }
        XYSeries s = chart.addSeries(name, List.of(0.0, (double) maxUsers), List.of(ceiling, ceiling));
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(color);
        s.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_MITER, 10f, new float[] {1f, 4f}, 0f));
    }

    /** A round number at or above the value (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten): where the axis ends. */
    static double niceCeiling(double value) {
        if (value <= 0) {
            return 1;
        }
        double decade = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (step * decade >= value) {
                return step * decade;
            }
        }
        return 10 * decade;
    }

    /**
     * The model as dashed lines: offered load N/(L+Z) and each pool's T/L; or each pool's response time N L / T - Z.
     * Each is drawn up to the chart's top; returns the names of the lines wholly above it.
     */
    static List<String> addModel(XYChart chart, String kind, long latency, List<Summary.PointRow> rows, int maxUsers,
            SweepPlan.PerRun plan, double top) {
        double think = (plan.thinkMinMs() + plan.thinkMaxMs()) / 2.0;
        // whole users (the model counts users), at most 41 points: few enough segments for the dashes to show
        List<Double> xs = new ArrayList<>(new TreeSet<>(java.util.stream.IntStream.rangeClosed(0, 40)
                .mapToObj(i -> (double) Math.max(1, Math.round(maxUsers * i / 40.0))).toList()));
        TreeSet<Integer> pools = rows.stream().map(r -> r.pool().poolThreads()).filter(t -> t != null)
                .collect(Collectors.toCollection(TreeSet::new));
        List<String> offChart = new ArrayList<>();
        if (kind.equals("throughput")) {
            addModelLine(chart, "model: offered N/(L+Z)", xs, n -> model(n, latency, think, OptionalInt.empty(), plan).offeredLoad(), top, offChart);
            for (int t : pools) {
                addModelLine(chart, "model: T/L, T=" + t, xs, n -> model(n, latency, think, OptionalInt.of(t),
                        plan).poolBound().getAsDouble(), top, offChart);
            }
        }
        else {
            for (int t : pools) {
                addModelLine(chart, "model: T=" + t, xs, n -> model(n, latency, think, OptionalInt.of(t),
                        plan).responseTimeMsAtFullPopulation(), top, offChart);
            }
        }
        return offChart;
    }

    private static QueueingModel model(double users, long latency, double think, OptionalInt threads, SweepPlan.PerRun plan) {
        return new QueueingModel((int) users, latency, think, threads, plan.rampSeconds(), plan.repeat());
    }

    /**
     * A service's bounds (its path names no latency): each pool its own metrics showed full, as a dashed line at its
     * bound (its size over the time one was held, the median over the points it was full at; a pool that publishes no
     * hold time held L each) from the first load (users, or an open point's rate) it was full at; and, where its closed
     * points calibrate its model (ServiceModel), the load its users offer, N/(L+Z), and the bound of the smallest pool
     * whose size the user gave, size / L.
     */
    static void addServiceBounds(XYChart chart, List<Summary.PointRow> rows, Function<Summary.PointRow, Double> load, double right,
            double top, List<String> offChart) {
        Map<String, List<Summary.PointRow>> byTarget = new LinkedHashMap<>();
        rows.forEach(r -> byTarget.computeIfAbsent(r.identity().target(), k -> new ArrayList<>()).add(r));
        boolean several = byTarget.size() > 1;
        byTarget.forEach((target, points) -> {
            Optional<ServiceModel> model = ServiceModel.of(points);
            String of = several ? target + ", " : "";
            model.ifPresent(m -> addModelLine(chart, "model: %soffered N/(L+Z), L %,.0f ms and L+Z %.2f s at %d users".formatted(of, m.latencyMs(),
                    m.cycleMs() / 1000, m.at().identity().users()), users(right), n -> m.offeredLoad(n.intValue()), top, offChart));
            Map<String, List<Summary.PointRow>> byPool = new LinkedHashMap<>();
            points.stream().filter(r -> r.evidence().fullPool() != null && (r.evidence().fullPoolBound() != null || model.isPresent()))
                    .forEach(r -> byPool.computeIfAbsent(r.evidence().fullPool(), k -> new ArrayList<>()).add(r));
            byPool.forEach((pool, full) -> {
                double from = full.stream().map(load).min(Double::compare).orElse(0.0);
                Summary.PointRow first = full.get(0);
                String name;
                double bound;
                if (first.evidence().fullPoolBound() != null) {
                    bound = Spread.of(full.stream().map(r -> r.evidence().fullPoolBound()).toList()).median();
                    double held = Spread.of(full.stream().map(r -> r.evidence().fullPoolHoldMs()).toList()).median();
                    name = "bound: %s%s, %.0f %s / %,.0f ms held = %,.0f req/s".formatted(of, pool, first.evidence().fullPoolSize(),
                            first.evidence().fullPoolUnit(), held, bound);
                }
                else {
                    bound = model.get().fullPoolBound(first.evidence());
                    double held = model.get().heldMs(pool);
                    name = "bound: %s%s, %.0f %s / %s %,.0f ms = %,.0f req/s".formatted(of, pool, first.evidence().fullPoolSize(),
                            first.evidence().fullPoolUnit(), model.get().heldAs(pool), held, bound);
                }
                addModelLine(chart, name, List.of(from, right), n -> bound, top, offChart);
            });
            model.ifPresent(m -> points.stream().filter(r -> r.evidence().givenPool() != null).findFirst().ifPresent(r -> {
                double bound = m.givenPoolBound(r.evidence());
                addModelLine(chart, "bound: %s%s, %.0f given / L %,.0f ms = %,.0f req/s".formatted(of, r.evidence().givenPool(),
                        r.evidence().givenPoolSize(), m.latencyMs(), bound), List.of(0.0, right), n -> bound, top, offChart);
            }));
        });
    }

    /**
     * A pool the settings' model does not count, found full by a target's own metrics where it held the target below
     * the model (Stages.Cause.SERVICE_POOL: Tomcat's HTTP/2 streams): its size moves with the load (the connections the
     * clients spread over), so its bound is no line across the chart but a dashed one through each such load's bound.
     */
    static void addOwnPoolBounds(XYChart chart, List<Summary.PointRow> rows) {
        Map<String, List<Summary.PointRow>> held = new LinkedHashMap<>();
        rows.stream().filter(r -> r.model().modelThroughput() != null && Stages.Cause.of(r) == Stages.Cause.SERVICE_POOL)
                .forEach(r -> held.computeIfAbsent(r.identity().target() + ", " + r.evidence().fullPool(), k -> new ArrayList<>()).add(r));
        held.forEach((name, points) -> {
            XYSeries s = chart.addSeries("bound: %s at each load (its size moves with it)".formatted(name),
                    points.stream().map(r -> (double) r.identity().users()).toList(), points.stream().map(r -> r.evidence().fullPoolBound()).toList());
            s.setMarker(SeriesMarkers.DIAMOND);
            s.setMarkerColor(Color.GRAY);
            s.setLineColor(Color.GRAY);
            s.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        });
    }

    /** Whole users from 1 to right, at most 41 of them: few enough segments for the dashes to show. */
    private static List<Double> users(double right) {
        return new ArrayList<>(new TreeSet<>(java.util.stream.IntStream.rangeClosed(0, 40)
                .mapToObj(i -> (double) Math.max(1, Math.round(right * i / 40.0))).toList()));
    }

    /** Greys for the model's lines, darkest first, so that they never take a target's color. */
    private static final Color[] MODEL_COLORS = {Color.BLACK, new Color(0x55, 0x55, 0x55), new Color(0x99, 0x99, 0x99), new Color(0xbb, 0xbb, 0xbb)};

    static void addModelLine(XYChart chart, String name, List<Double> xs, Function<Double, Double> f, double top,
            List<String> offChart) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (double n : xs) {
            double v = f.apply(n);
            if (v > top) {
                // every model line rises with N: end it where it crosses the top, nothing after is on the chart
                if (!x.isEmpty()) {
                    double n0 = x.getLast();
                    double v0 = y.getLast();
                    x.add(n0 + (n - n0) * (top - v0) / (v - v0));
                    y.add(top);
                }
                break;
            }
            x.add(n);
            y.add(v);
        }
        if (x.size() < 2) {
            offChart.add(name.replace("model: ", "") + " = " + "%,.0f".formatted(f.apply(xs.getLast())));
            return;
        }
        long modelLines = chart.getSeriesMap().keySet().stream().filter(k -> k.startsWith("model")).count();
        XYSeries s = chart.addSeries(name, x, y);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(MODEL_COLORS[(int) Math.min(modelLines, MODEL_COLORS.length - 1)]);
        s.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
    }
}
