package dev.latencylab.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Every target of a published sweep gets a colour of its own on its charts, the same on the capacity chart; a db or
 * http target its stack's hue.
 */
class ComparisonPageStyleTest {

    @Test
    void theTargetsOfOneChartNeverShareAColour() {
        for (List<String> sweep : List.of(
                List.of("mvc-t200", "mvc-t400", "mvc-virtual", "webflux"),
                List.of("mvc-t200-db", "mvc-virtual-db", "webflux-db", "mvc-virtual-db-p50", "webflux-db-p50"),
                List.of("mvc-t200-http", "mvc-virtual-http", "webflux-http", "mvc-virtual-http-p50", "webflux-http-p50"),
                List.of("mvc-t200-db-p50-pg20", "mvc-virtual-db-p50-pg20", "webflux-db-p50-pg20"))) {
            assertThat(sweep.stream().map(t -> ComparisonPage.Style.of(t).color()).distinct()).as(sweep.toString()).hasSize(sweep.size());
        }
    }

    /** The capacity chart draws each target as every sweep page does: WebFlux blue there too. */
    @Test
    void theCapacityChartUsesEachTargetsStyle() throws Exception {
        java.nio.file.Path capacity = Lab.repo().resolve(Published.CAPACITY);
        List<Capacity.Record> records;
        try (var dirs = java.nio.file.Files.newDirectoryStream(capacity, Published.CAPACITY_SEARCHES)) {
            records = java.util.stream.StreamSupport.stream(dirs.spliterator(), false).sorted().map(Capacity::read).toList();
        }
        var series = Capacity.chart(records).getSeriesMap();
        assertThat(records).extracting(Capacity.Record::target).contains("webflux", "mvc-t200");
        for (Capacity.Record r : records) {
            var due = series.get(r.target() + ": p99 from due");
            assertThat(due.getLineColor()).as(r.target()).isEqualTo(ComparisonPage.Style.of(r.target()).color());
            assertThat(due.getMarker()).as(r.target()).isEqualTo(ComparisonPage.Style.of(r.target()).marker());
        }
    }

    @Test
    void aDependencyTargetKeepsItsStacksMarkerAndHue() {
        ComparisonPage.Style webflux = ComparisonPage.Style.of("webflux");
        assertThat(ComparisonPage.Style.of("webflux-db")).isEqualTo(webflux);
        ComparisonPage.Style larger = ComparisonPage.Style.of("webflux-db-p50");
        assertThat(larger.marker()).isEqualTo(webflux.marker());
        assertThat(larger.color().getBlue()).as("darker blue").isLessThan(webflux.color().getBlue()).isPositive();
    }
}
