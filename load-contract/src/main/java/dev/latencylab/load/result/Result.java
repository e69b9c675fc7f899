package dev.latencylab.load.result;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * result.json as types: written by the simulation ({@link ResultFile#build}), read by the runner (summary, page,
 * report). docs/result.schema.json describes the same layout for other readers; units are in the names (Ms, Seconds,
 * PerSecond, Bytes) or, for CPU, stated there: a share of the run's cores, 0 to 1 (all the machine's, or those it was
 * pinned to: Injector.cores). Fields marked "since" are absent from files written before them; jvm is absent where
 * nothing recorded it.
 */
public record Result(String schema, String simulation, TargetSettings target, Parameters parameters, String start, String end,
        double durationSeconds, Requests requests, Throughput throughput, Plateau plateau, ResponseTimes responseTimeMs,
        EncodedHistogram histogram, Injector injector, Server server, Model model, Open open, Timeline timeline,
        List<String> problems, List<Part> parts,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Jvm jvm,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) List<ByRequest> byRequest,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) SloVerdict slo,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) String label) {

    /** The lab's own simulation, as a result file names it; any other name is a simulation of the user's (./lab run --simulation). */
    public static final String LAB_SIMULATION = "dev.latencylab.load.LoadSimulation";

    /** A result no objective has judged (as the simulation writes it): no SLO verdict. */
    public Result(String schema, String simulation, TargetSettings target, Parameters parameters, String start, String end,
            double durationSeconds, Requests requests, Throughput throughput, Plateau plateau, ResponseTimes responseTimeMs,
            EncodedHistogram histogram, Injector injector, Server server, Model model, Open open, Timeline timeline,
            List<String> problems, List<Part> parts, Jvm jvm, List<ByRequest> byRequest) {
        this(schema, simulation, target, parameters, start, end, durationSeconds, requests, throughput, plateau, responseTimeMs, histogram,
                injector, server, model, open, timeline, problems, parts, jvm, byRequest, null, null);
    }

    /** The same result judged by an objective (./lab run --slo, sweep --slo). */
    public Result withSlo(SloVerdict verdict) {
        return new Result(schema, simulation, target, parameters, start, end, durationSeconds, requests, throughput, plateau,
                responseTimeMs, histogram, injector, server, model, open, timeline, problems, parts, jvm, byRequest, verdict, label);
    }

    /** The same result with the label its run was given (./lab run --label: a commit, a version), which ./lab history shows. */
    public Result withLabel(String given) {
        return new Result(schema, simulation, target, parameters, start, end, durationSeconds, requests, throughput, plateau,
                responseTimeMs, histogram, injector, server, model, open, timeline, problems, parts, jvm, byRequest, slo, given);
    }

    /** Files written before problems were recorded have none. */
    public Result {
        problems = problems == null ? List.of() : List.copyOf(problems);
    }

    /** The same result with more problems: what the runner learned beside the simulation (e.g. a dependency that died). */
    public Result withProblems(List<String> more) {
        List<String> all = new java.util.ArrayList<>(problems);
        all.addAll(more);
        return new Result(schema, simulation, target, parameters, start, end, durationSeconds, requests, throughput, plateau,
                responseTimeMs, histogram, injector, server, model, open, timeline, all, parts, jvm, byRequest, slo, label);
    }

    /** The same result with the target that the runner started for it. */
    public Result withTarget(TargetSettings started) {
        return new Result(schema, simulation, started, parameters, start, end, durationSeconds, requests, throughput, plateau,
                responseTimeMs, histogram, injector, server, model, open, timeline, problems, parts, jvm, byRequest, slo, label);
    }

    /**
     * The same result with the sizes of pools the user gave for a service (./lab --pool), beside what its metrics said
     * of its pools; unchanged when none was given.
     */
    public Result withGivenPools(List<GivenPool> given) {
        if (given.isEmpty()) {
            return this;
        }
        Pools said = server.pools();
        Pools pools = new Pools(said == null ? List.of() : said.published(), said == null ? List.of() : said.unseen(), List.copyOf(given));
        Server s = new Server(server.sampling(), server.process(), server.threads(), server.heapUsedBytes(), server.cpu(), server.files(),
                server.waiting(), server.connectionPool(), pools);
        return new Result(schema, simulation, target, parameters, start, end, durationSeconds, requests, throughput, plateau,
                responseTimeMs, histogram, injector, s, model, open, timeline, problems, parts, jvm, byRequest, slo, label);
    }

    /** The same result with what the target's JVM recorded during it. */
    public Result withJvm(Jvm recorded) {
        return new Result(schema, simulation, target, parameters, start, end, durationSeconds, requests, throughput, plateau,
                responseTimeMs, histogram, injector, server, model, open, timeline, problems, parts, recorded, byRequest, slo, label);
    }

    /**
     * The target the lab started for the run (since target ids; null when the simulation ran against a server started
     * by hand): its id as on the command line (e.g. mvc-t200, webflux-db-p50), the module whose jar ran, and the
     * settings the id stands for, passed to it as Spring properties (a dependency's address, chosen per run, is not
     * among them).
     */
    public record TargetSettings(String id, String module, Map<String, String> properties) {

        public TargetSettings {
            properties = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(properties == null ? Map.of() : properties));
        }
    }

    /**
     * One injector's share of a merged result (see ResultMerge): its file, when it ran, what it counted, its own CPU
     * and open files. A result of one process has no parts (null).
     */
    public record Part(int index, String file, String start, String end, Requests requests, Injector injector) {
    }

    /**
     * The run's settings (see SimulationSettings), in named parts that the file writes flat (its fields keep their
     * names and order). targetPid since problems; injection's open-model settings (null for a closed run) since the
     * open model: for an open run users, repeat and think times do not apply. split: since several injectors (null
     * before); users is the whole run's, of which injector i started its share (see InjectorSplit); a merged result has
     * no injectorIndex.
     */
    public record Parameters(int users, @JsonUnwrapped Endpoint endpoint, @JsonUnwrapped RunPacing pacing, String connections,
            Integer modelThreads, @JsonUnwrapped Assertions assertions, boolean sampleServer, Long targetPid,
            @JsonUnwrapped Injection injection, @JsonUnwrapped Split split) {

        public boolean open() {
            return injection.open();
        }

        /** The same settings with this endpoint (what the connections negotiated, say). */
        public Parameters with(Endpoint other) {
            return new Parameters(users, other, pacing, connections, modelThreads, assertions, sampleServer, targetPid, injection, split);
        }

        /** The same settings as another injector's part of a split run records them (a merged result: index null). */
        public Parameters withSplit(Split other) {
            return new Parameters(users, endpoint, pacing, connections, modelThreads, assertions, sampleServer, targetPid, injection, other);
        }
    }

    /**
     * Where the load went: the server, its actuator, the path loaded (the first request's). Since request mixes:
     * requestMix, each request as "WEIGHT METHOD PATH" where they were not one GET; headers, the names of the headers
     * every request carried (never their values). Since TLS: protocol, what went on the wire (h1, h1-tls, h2; absent:
     * h1, as every file before it); trust, over TLS, which certificates the load trusted (see TlsTrust#id). Since
     * round five: negotiated, over TLS, how many connections agreed on each protocol by ALPN (h2, http/1.1), and protocol
     * is what they agreed on (h1-tls where none agreed on h2 though h2 was asked); null before, and where none was counted.
     */
    public record Endpoint(String baseUrl, String metricsUrl, String path,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) List<String> requestMix,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) List<String> headers,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) String protocol,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) String trust,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Map<String, Long> negotiated) {

        /** The same, with what the connections negotiated: protocol h1-tls where h2 was asked and none agreed on it. */
        public Endpoint negotiated(Map<String, Long> counts) {
            if (counts.isEmpty() || protocol == null || "h1".equals(protocol)) {
                return this;
            }
            String agreed = "h2".equals(protocol) && counts.getOrDefault("h2", 0L) == 0 ? "h1-tls" : protocol;
            return new Endpoint(baseUrl, metricsUrl, path, requestMix, headers, agreed, trust,
                    java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(counts)));
        }
    }

    /**
     * One request of a mix (since request mixes; null for a run of one request): its name ("GET /owners"), its weight
     * in the mix, its OK and KO counts and response times, and those times as a histogram (a merge adds them).
     */
    public record ByRequest(String name, int weight, long ok, long ko, ResponseTimes responseTimeMs, EncodedHistogram histogram) {
    }

    /** How the users arrive and pace themselves: ramp, requests per user, think time (closed model). */
    public record RunPacing(long rampSeconds, int repeat, long thinkMinMs, long thinkMaxMs) {
    }

    /** Gatling assertions the run was given; null where none. */
    public record Assertions(Long assertP95Ms, Long assertP99Ms, Double assertKoPercent) {
    }

    /** closed or open; for open, its rates, how long each is held, how arrivals are spaced and the SLO. */
    public record Injection(String injection, List<Double> rates, Long levelSeconds, String arrivals, Long sloP99Ms,
            Double sloKoPercent, Boolean stopOnSloMiss) {

        public boolean open() {
            return "open".equals(injection);
        }
    }

    /** Which share of a run this process was: of how many injectors, its index, when all of them started. */
    public record Split(Integer injectors, Integer injectorIndex, Long startAtEpochMs) {
    }

    public record Requests(long total, long ok, long ko, double koPercent, Map<String, Long> koByReason, Timeouts timeoutsMs) {
    }

    public record Timeouts(long connect, long request) {
    }

    /**
     * Completions (OK and KO) and goodput (OK only). plateau...: null when the run never had all its users active at
     * once. The goodput fields are absent from files written before goodput (null here).
     */
    public record Throughput(double meanPerSecond, long peakPerSecond, Double plateauPerSecond, long[] completedPerSecond,
            Double goodputMeanPerSecond, Double goodputPlateauPerSecond, long[] okPerSecond) {
    }

    /**
     * The seconds in which at least 95% of the peak of active users were active. machineSteal (share of CPU time the
     * hypervisor gave to other guests) and loadAverage (1 minute): since the machine fingerprint.
     */
    public record Plateau(int fromSecond, int toSecond, int minActiveUsers, Double throughputPerSecond, Double injectorCpu,
            Double machineCpu, Double serverCpu, Double machineSteal, Double loadAverage) {
    }

    /** Percentiles in ms; null when no request completed. */
    public record ResponseTimes(long count, Long p50, Long p75, Long p95, Long p99, Long p999, Long max, Double mean) {
    }

    public record EncodedHistogram(String unit, String encoding, String data) {
    }

    /** Mean and max of a value sampled about once a second; null when no sample had it. */
    public record Stat(Double mean, Double max, long samples) {
    }

    public record Injector(int cores, String jvm, int peakActiveUsers, String connections, boolean connectionsSwitched,
            long openFilesNeeded, long openFilesLimit, Stat openFiles, Stat cpu, Stat machineCpu) {
    }

    /**
     * What the injector sampled of the server, in named parts that the file writes flat. refusedSamples,
     * firstRefusedSecond, pid, exitedAtSecond: since problems; connectionPool: since /db; pools: since a service of the
     * user's (null in older files, and where the server published no pool).
     */
    public record Server(@JsonUnwrapped Sampling sampling, @JsonUnwrapped ServerProcess process, @JsonUnwrapped Threads threads,
            Stat heapUsedBytes, Stat cpu, @JsonUnwrapped Files files, @JsonUnwrapped Waiting waiting, ConnectionPool connectionPool,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) Pools pools) {
    }

    /**
     * Every pool the server publishes that can bound its throughput (ServicePools), on the plateau, and those it has but
     * does not publish, each with why and the setting that publishes it.
     */
    public record Pools(List<Pool> published, List<Unseen> unseen,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL) List<GivenPool> given) {

        public Pools(List<Pool> published, List<Unseen> unseen) {
            this(published, unseen, null);
        }

        /** The pools the user gave the sizes of (none: empty). */
        public List<GivenPool> givenOrNone() {
            return given == null ? List.of() : given;
        }

        /** Those of them its metrics do not show with a size: a pool they show is read from them, whatever was given. */
        public List<GivenPool> givenUnpublished() {
            return givenOrNone().stream().filter(g -> published.stream().noneMatch(p -> p.name().equals(g.name()) && p.size() != null)).toList();
        }

        /** A pool in full use on at least this share of the plateau's samples decided the run's goodput. */
        public static final double FULL = 0.5;

        /**
         * The pool that decided: of those full on the plateau, a connection pool before an executor before the request
         * threads (a request thread holds on through its wait for a connection or a task, so a full connection pool fills
         * the threads too, never the reverse), then the one held the shortest time (held inside the others); none when
         * no pool was full.
         */
        public java.util.Optional<Pool> decided() {
            return published.stream().filter(Pool::full)
                    .min(java.util.Comparator.comparingInt((Pool p) -> "connections".equals(p.unit()) ? 0 : p.name().startsWith("executor ") ? 1 : 2)
                            .thenComparing(p -> p.holdMs() == null ? Double.MAX_VALUE : p.holdMs()));
        }
    }

    /**
     * One pool a server publishes, on the plateau (the whole run when it had none).
     *
     * @param name           e.g. HikariCP, Tomcat's threads
     * @param unit           what it pools: connections or threads
     * @param size           how many it has (its maximum); null where it has no bound (note says why)
     * @param inUse          how many were in use
     * @param pending        requests waiting for one, where it publishes that
     * @param fullShare      share of the samples at which a request waited for one (where it publishes waits), else all were in use
     * @param holdMs         mean time one was held, from its own timer; null where it publishes none
     * @param boundPerSecond size / hold time: the most it serves per second; null without both
     * @param note           why it bounds nothing, else null
     */
    public record Pool(String name, String unit, Double size, Stat inUse, Stat pending, Double fullShare, Double holdMs,
            Double boundPerSecond, String note) {

        public boolean full() {
            return fullShare != null && fullShare >= Pools.FULL;
        }
    }

    /**
     * A pool of a service whose size the user gave (./lab --pool NAME=SIZE), for one its metrics do not show: no use,
     * no waits, no hold time of it are known; its bound is the model's, size / L, with L the service's own time
     * measured at its lightest load.
     *
     * @param name e.g. Tomcat's threads, or a name of the user's
     * @param unit what it pools (threads, connections), or null where the lab does not know the pool
     */
    public record GivenPool(String name, String unit, double size) {
    }

    /** A pool the server has but does not publish, and why: the setting that publishes it. */
    public record Unseen(String pool, String why) {
    }

    /** Whether the actuator was sampled, the samples it missed and refused, and when it first refused one. */
    public record Sampling(boolean sampled, long missedSamples, Long refusedSamples, Double firstRefusedSecond) {
    }

    /** The target JVM's PID (when it ran on this machine) and when it exited, if it did during the run. */
    public record ServerProcess(Long pid, Double exitedAtSecond) {
    }

    /** The server's pool of request threads (null without one), and its live and busy threads. */
    public record Threads(Integer poolThreads, Double peakLiveThreads, Stat liveThreads, Stat busyThreads) {
    }

    /** The server's open files (sockets among them) and its limit. */
    public record Files(Stat openFiles, Double openFilesLimit) {
    }

    /** Requests waiting in the server (hello.waiting): sampled, and the highest peak it reported. */
    public record Waiting(Stat waitingRequests, Double peakWaitingRequests) {
    }

    /**
     * A db or http target's connection pool (to the database or the downstream service), from its actuator each second:
     * its size, the connections in use and the requests waiting for one. Null for a target without one.
     */
    public record ConnectionPool(String library, Double maxConnections, Stat active, Stat pending) {
    }

    /** The queueing model's numbers for this run (see QueueingModel). */
    public record Model(double latencyMs, double thinkMeanMs, Integer threads, double offeredLoadPerSecond,
            Double poolBoundPerSecond, double throughputAtFullPopulationPerSecond, double meanThroughputBoundPerSecond,
            Double kneeUsers, double responseTimeMsAtFullPopulation, boolean saturated) {
    }

    /**
     * What an open run (sim.injection=open) measured; null for a closed run. responseTimeMs above is Gatling's clock
     * (from the moment it sent the request); fromDueMs counts from when each arrival was due by the injection
     * schedule, so it also holds any wait before sending: the gap between the two is the coordinated-omission gap.
     *
     * @param connections     how the injector connected: Gatling's shared HTTP/1.1 pool, which opens a connection
     *                        whenever none is idle (it has no cap), so a request never waits for one
     * @param sent            arrivals planned and started, and peakInFlight: most sent and not yet answered at once
     *                        (= connections in use)
     * @param injectorLagMs   how late the injector started arrivals against their due time
     * @param stoppedEarly    why the run stopped before its schedule ended (a level missed the SLO), or null
     * @param capacityPerSecond the model's capacity: T/L when a pool of T bounds the target, else null (no pool)
     * @param injectorLagHistogram injectorLagMs as a histogram (since several injectors: a merge adds them)
     * @param arrivalSends    what one arrival sends: "request" (the lab's own load: one request, timed from its due time)
     *                        or "flow" (a simulation of the user's: a user that runs its flow once; the flow's later
     *                        requests have no due time, so fromDueMs and fromDueHistogram are null, here and in each
     *                        level, which is judged by its requests' own times, and injectorLagMs says how late each user
     *                        started); null in files before it (a request)
     *
     * <p>Merged from several injectors (see ResultMerge): arrivals and counts summed, histograms added; peakInFlight
     * the sum of the injectors' peaks (at most: they need not have peaked at the same moment); stoppedEarly each
     * injector's reason.
     */
    public record Open(String arrivals, String connections, @JsonUnwrapped Sent sent, @JsonUnwrapped LevelSlo slo,
            ResponseTimes fromDueMs, EncodedHistogram fromDueHistogram, ResponseTimes injectorLagMs, String stoppedEarly,
            Double capacityPerSecond, List<Level> levels, EncodedHistogram injectorLagHistogram,
            @JsonInclude(JsonInclude.Include.NON_NULL) String arrivalSends) {

        /** What an arrival sends in the lab's own load: one request. */
        public static final String REQUEST = "request";
        /** What an arrival sends in a simulation of the user's: a user that runs the flow once. */
        public static final String FLOW = "flow";

        /** Each arrival a flow of the user's, whose levels are timed by its requests' own times, not from due. */
        public boolean flows() {
            return FLOW.equals(arrivalSends);
        }

        /** What a rate counts per second, by what an arrival sends: requests, or users each running a flow once. */
        public static String rateUnit(String arrivalSends) {
            return FLOW.equals(arrivalSends) ? "users/s" : "req/s";
        }

        /** What a level's p99 is timed from, in words, by what an arrival sends. */
        public static String p99Timed(String arrivalSends) {
            return FLOW.equals(arrivalSends) ? "of its requests" : "from due";
        }

        /** The highest level the run reached: the last with arrivals (a ladder stopped at a miss ends there); null when none had any. */
        public Level topLevel() {
            return levels.stream().filter(l -> l.counts().arrivals() > 0).reduce((a, b) -> b).orElse(null);
        }
    }

    /** An open run's arrivals: planned by the schedule, started, and the most in flight at once. */
    public record Sent(long plannedArrivals, long arrivalsStarted, long peakInFlight) {
    }

    /** The SLO each level of an open run is judged by: p99 from due, and the share of KO. */
    public record LevelSlo(long sloP99Ms, double sloKoPercent) {
    }

    /**
     * One rate held for a level of an open run, counted by the arrivals due within its plateau (ramps excluded), in
     * named parts that the file writes flat: window, fromSecond..toSecond in seconds since the run started; withinSlo:
     * its p99 from due and its KO share met the SLO and all its arrivals were answered or timed out (none cut off by a
     * stop); null when the level was never reached. goodputPerSecond: OK responses completed per second in the level's
     * whole seconds, whichever arrival they answered (what the server delivered while the rate was held: past a pool's
     * T/L, T/L); null when the run stopped before a whole second of it. In one injector's part of a split run,
     * ratePerSecond, plannedArrivals and modelThroughputPerSecond are its share.
     */
    public record Level(int index, double ratePerSecond, @JsonUnwrapped Window window, @JsonUnwrapped Counts counts,
            Double goodputPerSecond, @JsonUnwrapped LevelTimes times, @JsonUnwrapped Cpu cpu, Double modelThroughputPerSecond,
            Boolean withinSlo, String verdict, @JsonUnwrapped LevelHistograms histograms) {
    }

    /** Seconds since the run started. */
    public record Window(double fromSecond, double toSecond) {
    }

    /**
     * A level's arrivals: planned by the schedule, sent, answered OK or KO, and unanswered: still waiting when the run
     * ended, counted in fromDueMs at their age then (a lower bound).
     */
    public record Counts(long plannedArrivals, long arrivals, long ok, long ko, long unanswered) {
    }

    /**
     * A level's response times from Gatling's clock, from each arrival's due time (null for a flow's level: its requests
     * have no due time), and the injector's lag (ms).
     */
    public record LevelTimes(ResponseTimes responseTimeMs, ResponseTimes fromDueMs, ResponseTimes injectorLagMs) {

        /** The times the level is judged by: from due, or for a flow's level, its requests' own. */
        public ResponseTimes judged() {
            return fromDueMs != null ? fromDueMs : responseTimeMs;
        }
    }

    /** Mean CPU over a span: the server's, the injector's, the machine's (each a share of the run's cores); null where unread. */
    public record Cpu(Double serverCpu, Double injectorCpu, Double machineCpu) {
    }

    /**
     * A level's three histograms (since several injectors: null before): responseTimeMs, fromDueMs and injectorLagMs
     * whole, so that the levels of several injectors merge exactly.
     */
    public record LevelHistograms(EncodedHistogram responseTimeHistogram, EncodedHistogram fromDueHistogram,
            EncodedHistogram injectorLagHistogram) {
    }

    /** One row per sample; columns as named (see Tick); null where a value was not read. */
    public record Timeline(List<String> columns, List<List<Object>> rows) {
    }
}
