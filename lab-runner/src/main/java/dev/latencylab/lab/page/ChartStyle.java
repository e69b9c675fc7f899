package dev.latencylab.lab.page;

import java.awt.Color;
import java.util.Map;
import java.util.Optional;

import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

import dev.latencylab.lab.targets.Target;

/** A target's colour and marker, the same on every page and chart (Okabe-Ito, readable with colour blindness). */
record ChartStyle(Color color, Marker marker) {

    private static final Map<String, ChartStyle> KNOWN = Map.of(
            "webflux", new ChartStyle(new Color(0, 114, 178), SeriesMarkers.CIRCLE),
            "mvc-t200", new ChartStyle(new Color(213, 94, 0), SeriesMarkers.SQUARE),
            "mvc-t400", new ChartStyle(new Color(230, 159, 0), SeriesMarkers.DIAMOND),
            "mvc-virtual", new ChartStyle(new Color(0, 158, 115), SeriesMarkers.TRIANGLE_UP),
            "mvc-virtual-uncapped", new ChartStyle(new Color(86, 180, 233), SeriesMarkers.TRIANGLE_DOWN),
            "webflux-block-parallel", new ChartStyle(new Color(204, 121, 167), SeriesMarkers.CROSS),
            "webflux-block-elastic", new ChartStyle(new Color(120, 94, 240), SeriesMarkers.CROSS));
    private static final Color[] OTHERS = {new Color(153, 79, 0), new Color(0, 90, 90), new Color(140, 0, 140), new Color(90, 90, 0)};
    /** How much lighter (per cent of the way to white) over TLS, and how dark (per cent of the colour) over HTTP/2. */
    private static final int TLS_TINT = 50;
    private static final int H2_SHADE = 55;
    private static final Marker[] OTHER_MARKERS = {SeriesMarkers.SQUARE, SeriesMarkers.DIAMOND, SeriesMarkers.TRIANGLE_UP, SeriesMarkers.CIRCLE};

    /**
     * A known id's own style; a db or http target its base target's colour (the stack), lighter when it names its
     * pool (-p) and darker when it names PostgreSQL's max_connections (-pg), the old JDBC driver or HTTP/2 to its
     * downstream (-h2c), so that its variants differ on one
     * chart (two darkened stacks, green and blue, were hard to tell apart); any other id always gets the same one
     * of a few more, from its name.
     */
    static ChartStyle of(String target) {
        ChartStyle known = KNOWN.get(target);
        if (known != null) {
            return known;
        }
        Optional<Target.TlsId> tls = Target.TlsId.of(target);
        if (tls.isPresent()) {
            // its stack's colour and marker: lighter over TLS, darker over HTTP/2, so that the three differ on one chart
            ChartStyle base = of(tls.get().base());
            Color c = base.color();
            Color shaded = tls.get().protocol() == dev.latencylab.load.tls.Protocol.H2
                    ? new Color(c.getRed() * H2_SHADE / 100, c.getGreen() * H2_SHADE / 100, c.getBlue() * H2_SHADE / 100)
                    : new Color(c.getRed() + (255 - c.getRed()) * TLS_TINT / 100, c.getGreen() + (255 - c.getGreen()) * TLS_TINT / 100,
                            c.getBlue() + (255 - c.getBlue()) * TLS_TINT / 100);
            // Tomcat's streams set (-s): the same colour, the next marker, beside its default
            return new ChartStyle(shaded, tls.get().streams() == null ? base.marker()
                    : nextMarker(base.marker()));
        }
        Optional<Target.DependencyId> dependency = Target.DependencyId.of(target);
        if (dependency.isPresent()) {
            ChartStyle base = of(dependency.get().base());
            Color c = base.color();
            if (dependency.get().connections() != null) {
                c = new Color(c.getRed() + (255 - c.getRed()) * 9 / 20, c.getGreen() + (255 - c.getGreen()) * 9 / 20,
                        c.getBlue() + (255 - c.getBlue()) * 9 / 20);
            }
            if (dependency.get().serverMax() != null) {
                c = new Color(c.getRed() * 3 / 5, c.getGreen() * 3 / 5, c.getBlue() * 3 / 5);
            }
            if (dependency.get().legacyDriver() || dependency.get().h2c()) {
                // the same stack on the old JDBC driver, or calling its downstream over HTTP/2: darker, and its own marker,
                // beside the build's driver or HTTP/1.1
                return new ChartStyle(new Color(c.getRed() / 2, c.getGreen() / 2, c.getBlue() / 2),
                        nextMarker(base.marker()));
            }
            return new ChartStyle(c, base.marker());
        }
        int h = Math.floorMod(target.hashCode(), OTHERS.length * OTHER_MARKERS.length);
        return new ChartStyle(OTHERS[h % OTHERS.length], OTHER_MARKERS[h / OTHERS.length]);
    }

    /** The marker after a stack's own, for a variant drawn in its colour beside it. */
    private static Marker nextMarker(Marker marker) {
        return OTHER_MARKERS[(java.util.Arrays.asList(OTHER_MARKERS).indexOf(marker) + 1) % OTHER_MARKERS.length];
    }
}
