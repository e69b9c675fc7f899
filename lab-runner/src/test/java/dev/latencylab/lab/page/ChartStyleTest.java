package dev.latencylab.lab.page;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.latencylab.lab.Lab;
import dev.latencylab.lab.capacity.Capacity;
import dev.latencylab.lab.docs.Published;
import dev.latencylab.lab.layout.SweepFolder;
import dev.latencylab.lab.sweep.Sweep;

/**
 * Every target of a published sweep gets a colour of its own on its charts, the same on the capacity chart; a db or
 * http target its stack's hue.
 */
class ChartStyleTest {

    @Test
    void theTargetsOfOneChartNeverShareAColour() {
        for (List<String> sweep : List.of(
                List.of("mvc-t200", "mvc-t400", "mvc-virtual", "webflux"),
                List.of("mvc-t200-db", "mvc-virtual-db", "webflux-db", "mvc-virtual-db-p50", "webflux-db-p50"),
                List.of("mvc-t200-http", "mvc-virtual-http", "webflux-http", "mvc-virtual-http-p50", "webflux-http-p50"),
                List.of("mvc-t200-db-p50-pg20", "mvc-virtual-db-p50-pg20", "webflux-db-p50-pg20"))) {
            assertThat(sweep.stream().map(t -> ChartStyle.of(t).color()).distinct()).as(sweep.toString()).hasSize(sweep.size());
        }
    }

    /** The capacity chart draws each target as every sweep page does: WebFlux blue there too. */
    @Test
    void theCapacityChartUsesEachTargetsStyle() {
        List<Capacity.Search> records = Published.capacitySearches(Lab.repo());
        var series = HockeyStickChart.chart(records).getSeriesMap();
        assertThat(records).extracting(s -> s.settings().target()).contains("webflux", "mvc-t200");
        for (Capacity.Search r : records) {
            var due = series.get(r.settings().target() + ": p99 from when due");
            assertThat(due.getLineColor()).as(r.settings().target()).isEqualTo(ChartStyle.of(r.settings().target()).color());
            assertThat(due.getMarker()).as(r.settings().target()).isEqualTo(ChartStyle.of(r.settings().target()).marker());
        }
    }

    @Test
    void aDependencyTargetKeepsItsStacksMarkerAndHue() {
        ChartStyle webflux = ChartStyle.of("webflux");
        assertThat(ChartStyle.of("webflux-db")).isEqualTo(webflux);
        ChartStyle larger = ChartStyle.of("webflux-db-p50");
        assertThat(larger.marker()).isEqualTo(webflux.marker());
        assertThat(larger.color().getRed()).as("lighter blue").isGreaterThan(webflux.color().getRed());
        assertThat(larger.color().getBlue()).isGreaterThan(webflux.color().getBlue());
        ChartStyle capped = ChartStyle.of("webflux-db-p50-pg20");
        assertThat(capped.color().getBlue()).as("max_connections: darker than its pool's").isLessThan(larger.color().getBlue());
    }

    /** CIE L*a*b* of an sRGB colour (D65), for the distance between two colours as a reader sees them. */
    private static double[] lab(java.awt.Color c) {
        double[] rgb = java.util.Arrays.stream(new int[] {c.getRed(), c.getGreen(), c.getBlue()}).mapToDouble(v -> {
            double u = v / 255.0;
            return u > 0.04045 ? Math.pow((u + 0.055) / 1.055, 2.4) : u / 12.92;
        }).toArray();
        double x = (rgb[0] * 0.4124 + rgb[1] * 0.3576 + rgb[2] * 0.1805) / 0.95047;
        double y = rgb[0] * 0.2126 + rgb[1] * 0.7152 + rgb[2] * 0.0722;
        double z = (rgb[0] * 0.0193 + rgb[1] * 0.1192 + rgb[2] * 0.9505) / 1.08883;
        java.util.function.DoubleUnaryOperator f = t -> t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16.0 / 116;
        return new double[] {116 * f.applyAsDouble(y) - 16, 500 * (f.applyAsDouble(x) - f.applyAsDouble(y)),
                200 * (f.applyAsDouble(y) - f.applyAsDouble(z))};
    }

    /**
     * Two targets of one published page are told apart by colour alone (a legend shows no marker shape at a glance):
     * their colours are at least 20 apart in CIE L*a*b* (ΔE 1976; about 2 is the least a reader notices side by side).
     */
    @Test
    void theTargetsOfOnePageAreToldApartByColour() {
        for (String sweep : Published.SWEEPS) {
            List<String> targets = Sweep.rows(new SweepFolder(Lab.repo().resolve(sweep))).stream().map(r -> r.identity().target()).distinct().toList();
            for (String a : targets) {
                for (String b : targets) {
                    if (a.compareTo(b) < 0) {
                        double[] la = lab(ChartStyle.of(a).color());
                        double[] lb = lab(ChartStyle.of(b).color());
                        double distance = Math.sqrt(Math.pow(la[0] - lb[0], 2) + Math.pow(la[1] - lb[1], 2) + Math.pow(la[2] - lb[2], 2));
                        assertThat(distance).as("%s and %s on %s", a, b, sweep).isGreaterThanOrEqualTo(20);
                    }
                }
            }
        }
    }
}
