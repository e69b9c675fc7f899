package dev.latencylab.lab.footprint;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

import com.fasterxml.jackson.annotation.JsonValue;

import dev.latencylab.load.result.Json;
import dev.latencylab.lab.layout.FootprintFolder;
import dev.latencylab.lab.layout.OutputFile;
import dev.latencylab.lab.machine.Machine;
import dev.latencylab.lab.run.ServiceSpec;
import dev.latencylab.lab.run.Status;
import dev.latencylab.lab.summary.Spread;
import dev.latencylab.lab.summary.RecordCsv;

/**
 * What concurrency costs in memory, as footprint.json holds it: for each target, how its memory grows with N requests
 * held in flight and with N idle keep-alive connections, each N measured on a fresh target after a forced GC; and the
 * fits, the cost of one more request or connection as the slope of a least-squares line, its spread over repeats.
 */
public record Footprint(Settings settings, Machine.Fingerprint machine, String jdk, String created, List<Measurement> measurements) {

    /** What N connections do: wait on a slow request each (in flight), or stay open after one quick answer (idle). */
    public enum Mode {
        IN_FLIGHT("in-flight", "requests in flight"), IDLE("idle", "idle keep-alive connections");

        private final String id;
        private final String words;

        Mode(String id, String words) {
            this.id = id;
            this.words = words;
        }

        @JsonValue
        public String id() {
            return id;
        }

        public String words() {
            return words;
        }

        public static Mode parse(String id) {
            for (Mode m : values()) {
                if (m.id.equals(id)) {
                    return m;
                }
            }
            throw new IllegalArgumentException("unknown mode '" + id + "': in-flight or idle");
        }
    }

    /**
     * @param holdSeconds   how long the target holds each request in flight (/hello/{hold}): longer than a measurement takes
     * @param settleSeconds the wait between the last connection and the forced GC
     * @param containerMiB  the container size whose N the page gives
     * @param heapMiB       the heap size whose N the page gives
     * @param jvmOptions    what every target was started with beside its id's settings
     * @param service       a jar of the user's measured instead of the lab's targets (footprint --jar), named in targets;
     *                      none in files written before it
     */
    public record Settings(List<String> targets, List<Mode> modes, List<Integer> counts, int repeats, long holdSeconds,
            long settleSeconds, long containerMiB, long heapMiB, List<String> jvmOptions,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) ServiceSpec service) {

        /** The lab's own targets. */
        public Settings(List<String> targets, List<Mode> modes, List<Integer> counts, int repeats, long holdSeconds,
                long settleSeconds, long containerMiB, long heapMiB, List<String> jvmOptions) {
            this(targets, modes, counts, repeats, holdSeconds, settleSeconds, containerMiB, heapMiB, jvmOptions, null);
        }
    }

    /**
     * One target holding count connections, fresh for it: done with its memory, or failed and why (memory null). held:
     * what the check after the reading found (in flight: requests the target still had waiting; idle: connections
     * still open), equal to count in a measurement that counts.
     */
    public record Measurement(String target, Mode mode, int count, int repeat, Status status, String reason, Long held,
            Double secondsToHold, MemorySnapshot memory) {

        public boolean done() {
            return status == Status.DONE;
        }

        /** Its name in logs and tables, e.g. webflux-idle-n1000-r2. */
        public String name() {
            return name(target, mode, count, repeat);
        }

        /** A measurement's name before it is made: webflux-inflight-n1000-r2. */
        public static String name(String target, Mode mode, int count, int repeat) {
            return "%s-%s-n%d-r%d".formatted(target, mode.id(), count, repeat);
        }
    }

    /** A measure the fits are made of: its name, unit and where a snapshot has it (bytes, or a count). */
    public enum Measure {
        RSS("rss", "resident memory (RSS)", true, m -> m.rssBytes()),
        HEAP_USED("heap-used", "heap used after GC", true, m -> m.heapUsedBytes()),
        HEAP_COMMITTED("heap-committed", "heap committed", true, m -> m.heapCommittedBytes()),
        NON_HEAP("non-heap", "non-heap used", true, m -> m.nonHeapUsedBytes()),
        NATIVE_TOTAL("native", "native, all NMT categories committed", true, m -> kib(m, "Total")),
        THREAD_STACKS("thread-stacks", "thread stacks committed (NMT)", true, m -> m.threadStacks().committedKiB() * 1024.0),
        NATIVE_OTHER("native-other", "NMT Other (direct buffers)", true, m -> kib(m, "Other")),
        THREADS("threads", "OS threads", false, m -> m.osThreads());

        private final String id;
        private final String words;
        private final boolean bytes;
        private final ToDoubleFunction<MemorySnapshot> of;

        Measure(String id, String words, boolean bytes, ToDoubleFunction<MemorySnapshot> of) {
            this.id = id;
            this.words = words;
            this.bytes = bytes;
            this.of = of;
        }

        private static double kib(MemorySnapshot m, String category) {
            Long k = m.nativeCommittedKiB().get(category);
            return k == null ? 0 : k * 1024.0;
        }

        @JsonValue
        public String id() {
            return id;
        }

        public String words() {
            return words;
        }

        public boolean bytes() {
            return bytes;
        }

        public double of(MemorySnapshot m) {
            return of.applyAsDouble(m);
        }
    }

    /**
     * A measure against N for one target and mode: the slope (its cost per request or connection) and intercept of a
     * least-squares line through each repeat's measurements, as the median and range over repeats; n the measurements.
     */
    public record Fit(String target, Mode mode, Measure measure, Spread slope, Spread intercept, int measurements) {

        /** The N at which the line reaches limit (bytes): null when it does not grow. */
        public Double countAt(double limit) {
            return slope.median() == null || slope.median() <= 0 ? null : (limit - intercept.median()) / slope.median();
        }
    }

    /** The fits of every target, mode and measure that has at least two counts measured in a repeat. */
    public List<Fit> fits() {
        List<Fit> fits = new ArrayList<>();
        for (String target : settings.targets()) {
            for (Mode mode : settings.modes()) {
                for (Measure measure : Measure.values()) {
                    fit(target, mode, measure).ifPresent(fits::add);
                }
            }
        }
        return fits;
    }

    public Optional<Fit> fit(String target, Mode mode, Measure measure) {
        List<Double> slopes = new ArrayList<>();
        List<Double> intercepts = new ArrayList<>();
        int n = 0;
        for (int r = 1; r <= settings.repeats(); r++) {
            int repeat = r;
            List<Measurement> of = measurements.stream().filter(m -> m.done() && m.target().equals(target) && m.mode() == mode
                    && m.repeat() == repeat).toList();
            if (of.stream().map(Measurement::count).distinct().count() < 2) {
                continue;
            }
            double[] line = leastSquares(of.stream().mapToDouble(Measurement::count).toArray(),
                    of.stream().mapToDouble(m -> measure.of(m.memory())).toArray());
            slopes.add(line[0]);
            intercepts.add(line[1]);
            n += of.size();
        }
        return slopes.isEmpty() ? Optional.empty()
                : Optional.of(new Fit(target, mode, measure, Spread.of(slopes), Spread.of(intercepts), n));
    }

    /** A class of the live heap and what it adds per request or connection (bytes, over the repeats). */
    public record HeapCost(String name, Spread bytesEach) {

        /** The class as Java spells it: byte[] for [B, java.lang.Object[] for [Ljava.lang.Object;. */
        public String javaName() {
            int dims = 0;
            while (dims < name.length() && name.charAt(dims) == '[') {
                dims++;
            }
            if (dims == 0) {
                return name;
            }
            String element = name.substring(dims);
            String base = switch (element) {
                case "B" -> "byte";
                case "C" -> "char";
                case "I" -> "int";
                case "J" -> "long";
                case "S" -> "short";
                case "Z" -> "boolean";
                case "F" -> "float";
                case "D" -> "double";
                default -> element.startsWith("L") && element.endsWith(";") ? element.substring(1, element.length() - 1) : element;
            };
            return base + "[]".repeat(dims);
        }
    }

    /**
     * Where the heap's growth goes: for each repeat, what each class holds at the largest count less what it holds at
     * the smallest, over the difference of the counts; the median over repeats, the largest first. A class missing from
     * a snapshot's {@value MemorySnapshot#HEAP_CLASSES} largest counts as 0 there (less than the smallest kept); an
     * experiment from before the histogram has none.
     */
    public List<HeapCost> heapCosts(String target, Mode mode) {
        int low = settings.counts().get(0);
        int high = settings.counts().getLast();
        java.util.Map<String, List<Double>> each = new java.util.TreeMap<>();
        for (int r = 1; r <= settings.repeats(); r++) {
            Optional<Measurement> a = measurement(target, mode, low, r);
            Optional<Measurement> b = measurement(target, mode, high, r);
            if (a.isEmpty() || b.isEmpty() || a.get().memory().heapClasses() == null || b.get().memory().heapClasses() == null) {
                continue;
            }
            java.util.Map<String, Long> before = bytesByClass(a.get().memory());
            java.util.Map<String, Long> after = bytesByClass(b.get().memory());
            java.util.Set<String> names = new java.util.TreeSet<>(before.keySet());
            names.addAll(after.keySet());
            for (String name : names) {
                each.computeIfAbsent(name, n -> new ArrayList<>())
                        .add((after.getOrDefault(name, 0L) - before.getOrDefault(name, 0L)) / (double) (high - low));
            }
        }
        return each.entrySet().stream().map(e -> new HeapCost(e.getKey(), Spread.of(e.getValue())))
                .sorted(java.util.Comparator.comparingDouble((HeapCost c) -> -c.bytesEach().median())).toList();
    }

    /** The measurement of this target, mode, count and repeat that was done, if any. */
    public Optional<Measurement> measurement(String target, Mode mode, int count, int repeat) {
        return measurements.stream().filter(m -> m.done() && m.target().equals(target) && m.mode() == mode && m.count() == count
                && m.repeat() == repeat).findFirst();
    }

    private static java.util.Map<String, Long> bytesByClass(MemorySnapshot m) {
        return m.heapClasses().stream().collect(java.util.stream.Collectors.toMap(MemorySnapshot.HeapClass::name,
                MemorySnapshot.HeapClass::bytes, Long::sum));
    }

    /** The least-squares line through (x, y): {slope, intercept}. */
    static double[] leastSquares(double[] x, double[] y) {
        double mx = java.util.Arrays.stream(x).average().orElseThrow();
        double my = java.util.Arrays.stream(y).average().orElseThrow();
        double sxy = 0;
        double sxx = 0;
        for (int i = 0; i < x.length; i++) {
            sxy += (x[i] - mx) * (y[i] - my);
            sxx += (x[i] - mx) * (x[i] - mx);
        }
        double slope = sxy / sxx;
        return new double[] {slope, my - slope * mx};
    }

    /** The same experiment without an earlier measurement of m's point (a failed one, measured again). */
    public Footprint without(Measurement m) {
        return new Footprint(settings, machine, jdk, created, measurements.stream().filter(o -> !o.name().equals(m.name())).toList());
    }

    public Footprint with(Measurement m) {
        List<Measurement> all = new ArrayList<>(measurements);
        all.add(m);
        return new Footprint(settings, machine, jdk, created, all);
    }

    /** One row of measurements.csv: a measurement, its memory flat (empty where it failed). */
    public record Row(String target, String mode, int count, int repeat, Status status, Long held, Double secondsToHold,
            Memory memory, String reason) {

        static Row of(Measurement m) {
            return new Row(m.target(), m.mode().id(), m.count(), m.repeat(), m.status(), m.held(), m.secondsToHold(),
                    m.memory() == null ? Memory.NONE : Memory.of(m.memory()), m.reason());
        }
    }

    /** A snapshot's figures as columns: bytes, counts, NMT's KiB. */
    public record Memory(Long rssBytes, Integer osThreads, Long liveThreads, Integer sockets, Long heapUsedBytes,
            Long heapCommittedBytes, Long nonHeapUsedBytes, Long directBufferBytes, Long nativeCommittedKiB, Long threadStacksKiB,
            Long nativeOtherKiB) {

        static final Memory NONE = new Memory(null, null, null, null, null, null, null, null, null, null, null);

        static Memory of(MemorySnapshot s) {
            return new Memory(s.rssBytes(), s.osThreads(), s.liveThreads(), s.sockets(), s.heapUsedBytes(), s.heapCommittedBytes(),
                    s.nonHeapUsedBytes(), s.directBufferBytes(), s.nativeCommittedKiB().get("Total"), s.threadStacks().committedKiB(),
                    s.nativeCommittedKiB().get("Other"));
        }
    }

    /** footprint.json and measurements.csv, whole or not at all. */
    public void write(FootprintFolder folder) {
        OutputFile.json(folder.footprintFile(), Json.MAPPER, this);
        writeTable(folder);
    }

    /** measurements.csv: footprint.json's measurements as a table, written again with the page, never read back. */
    public void writeTable(FootprintFolder folder) {
        RecordCsv.write(measurements.stream().map(Row::of).toList(), Row.class, folder.measurementsCsv());
    }

    /**
     * footprint.json, checked before a line is fitted through it: its parts present, each measurement made once, and a
     * measurement that counts held what it says it measured (done: memory read, and held equal to its count).
     */
    public static Footprint read(Path dir) {
        Path file = new FootprintFolder(dir).footprintFile();
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(dir + " holds no " + FootprintFolder.FOOTPRINT_FILE + ": give a folder that ./lab footprint made");
        }
        Footprint f;
        try {
            f = Json.MAPPER.readValue(file.toFile(), Footprint.class);
        }
        catch (tools.jackson.core.JacksonException e) {
            throw new IllegalArgumentException("%s: not a footprint experiment of this version: %s".formatted(file, e.getOriginalMessage()));
        }
        String wrong = f == null ? "it is empty" : f.problem();
        if (wrong != null) {
            throw new IllegalArgumentException("%s: %s".formatted(file, wrong));
        }
        return f;
    }

    /** What makes this experiment unusable, in one line naming the part; null when nothing does. */
    private String problem() {
        if (settings == null || measurements == null || settings.targets() == null || settings.modes() == null || settings.counts() == null
                || settings.counts().isEmpty()) {
            return "its settings (targets, modes, counts) and measurements are required";
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < measurements.size(); i++) {
            Measurement m = measurements.get(i);
            if (m == null || m.target() == null || m.mode() == null || m.status() == null) {
                return "measurements[%d] needs its target, mode and status".formatted(i);
            }
            if (!seen.add(m.name())) {
                return "measurements[%d] (%s) is there twice: each count of each repeat is measured once".formatted(i, m.name());
            }
            if (m.done() && (m.memory() == null || m.held() == null || m.held() != m.count())) {
                return "measurements[%d] (%s) is done but held %s of its %d (memory %s): a measurement counts only when it held its count"
                        .formatted(i, m.name(), m.held(), m.count(), m.memory() == null ? "not read" : "read");
            }
        }
        return null;
    }
}
