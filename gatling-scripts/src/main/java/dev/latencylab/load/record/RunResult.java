package dev.latencylab.load.record;

import dev.latencylab.load.guard.CheckedHost;
import dev.latencylab.load.guard.Negotiated;
import dev.latencylab.load.result.HistogramCodec;
import dev.latencylab.load.result.PlateauSpan;
import dev.latencylab.load.model.OpenModel;
import dev.latencylab.load.model.QueueingModel;
import dev.latencylab.load.preflight.Preflight;
import dev.latencylab.load.result.Result;
import dev.latencylab.load.result.ResultFile;
import dev.latencylab.load.result.Tick;
import dev.latencylab.load.sample.Sampler;
import dev.latencylab.load.settings.RequestMix;
import dev.latencylab.load.settings.SimulationSettings;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

import org.HdrHistogram.Histogram;

/**
 * A run's Result, from what the simulation's recorders hold at its end (the run's counts and histograms, the samples,
 * the open model's arrivals, the preflight's findings): the simulation's side of the result file, whose format,
 * reading and writing are ResultFile's.
 */
public final class RunResult {

    private RunResult() {
    }

    /** How an open run connects (recorded in its result file). */
    public static final String OPEN_CONNECTIONS = "shared: Gatling's HTTP/1.1 pool for all arrivals, a new connection whenever "
            + "none is idle (no cap, so no arrival waits for one; peakInFlight is how many were in use)";

    /**
     * Everything the run learned, in the result file's layout.
     *
     * @param arrivals the open model's arrivals, null for a closed run
     */
    public static Result build(SimulationSettings settings, Preflight preflight, RunRecorder run, Sampler sampler,
            ArrivalRecorder arrivals, long connectTimeoutMs, long requestTimeoutMs) {
        RequestMix mix = settings.endpoint().mix();
        Result.Model model = settings.open() ? OpenModel.of(settings, preflight.targetThreads()).map(OpenModel::result).orElse(null)
                : QueueingModel.of(settings, preflight.targetThreads()).map(QueueingModel::result).orElse(null);
        Result.Open open = arrivals == null ? null : open(settings, preflight, run, sampler, arrivals);
        return build(Result.LAB_SIMULATION, settings, preflight, run, sampler, open, connectTimeoutMs, requestTimeoutMs, model,
                mix.requests().stream().map(q -> new Named(q.name(), q.weight())).toList(), problems(settings, run, sampler, arrivals));
    }

    /** A request as the result file names it, with its weight in a mix (1 in a user's flow, which sends it as it will). */
    public record Named(String name, int weight) {
    }

    /**
     * A run of a user's simulation (its own flow, a closed load or an open one), from its requests as Gatling recorded
     * them: no model (its think time is the flow's own, which the lab does not know), each request by the name the flow
     * gave it.
     *
     * @param open the levels of an open load, null for a closed one
     */
    public static Result ofSimulation(String simulation, SimulationSettings settings, Preflight preflight, RunRecorder run, Sampler sampler,
            Result.Open open, List<String> requestNames, long connectTimeoutMs, long requestTimeoutMs) {
        return build(simulation, settings, preflight, run, sampler, open, connectTimeoutMs, requestTimeoutMs, null,
                requestNames.stream().map(n -> new Named(n, 1)).toList(), problems(settings, run, sampler, null));
    }

    /**
     * What the run's samples say of a span of its seconds (from, to): mean CPU of server, injector and machine, and OK
     * responses completed per second in its whole seconds.
     */
    public static Function<double[], ArrivalRecorder.Span> spans(RunRecorder run, Sampler sampler) {
        long[] okPerSecond = run.okPerSecond();
        return span -> {
            Predicate<Tick> in = t -> t.second() >= span[0] && t.second() <= span[1];
            return new ArrivalRecorder.Span(sampler.series(Tick::serverCpu, in).mean(), sampler.series(Tick::injectorCpu, in).mean(),
                    sampler.series(Tick::machineCpu, in).mean(), PlateauSpan.meanOfWholeSeconds(okPerSecond, span[0], span[1]));
        };
    }

    private static Result build(String simulation, SimulationSettings settings, Preflight preflight, RunRecorder run, Sampler sampler,
            Result.Open open, long connectTimeoutMs, long requestTimeoutMs, Result.Model model, List<Named> requestNames,
            List<String> problems) {
        double seconds = run.duration().toMillis() / 1000.0;
        long total = run.ok() + run.ko();
        Result.Requests requests = new Result.Requests(total, run.ok(), run.ko(), total == 0 ? 0.0 : 100.0 * run.ko() / total,
                run.koByReason(), new Result.Timeouts(connectTimeoutMs, requestTimeoutMs));

        long[] perSecond = run.completedPerSecond();
        long[] okPerSecond = run.okPerSecond();
        PlateauSpan.Rule rule = PlateauSpan.rule(open, run.peakActiveUsers());
        Predicate<Tick> onPlateau = t -> rule.test(t.second(), (double) t.activeUsers());
        List<Tick> plateauTicks = sampler.ticks().stream().filter(onPlateau).toList();
        PlateauSpan.Seconds span = plateauTicks.isEmpty() ? PlateauSpan.Seconds.NONE
                : PlateauSpan.Seconds.of(plateauTicks.get(0).second(), plateauTicks.getLast().second(), perSecond, okPerSecond);
        Result.Plateau plateau = plateauTicks.isEmpty() ? null : new Result.Plateau(span.from(), span.to(),
                plateauTicks.stream().mapToInt(Tick::activeUsers).min().orElse(0), span.throughput(),
                sampler.series(Tick::injectorCpu, onPlateau).mean(), sampler.series(Tick::machineCpu, onPlateau).mean(),
                sampler.series(Tick::serverCpu, onPlateau).mean(), sampler.series(Tick::machineSteal, onPlateau).mean(),
                sampler.series(Tick::loadAverage, onPlateau).mean());
        Result.Throughput throughput = new Result.Throughput(seconds == 0 ? 0.0 : total / seconds,
                Arrays.stream(perSecond).max().orElse(0), span.throughput(), perSecond,
                seconds == 0 ? 0.0 : run.ok() / seconds, span.goodput(), okPerSecond);

        Histogram h = run.responseTimes();
        Result.Injector injector = new Result.Injector(sampler.cores(),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.version"), run.peakActiveUsers(),
                preflight.connections().id(), preflight.switched(), preflight.openFilesNeeded(), preflight.openFilesLimit(),
                sampler.series(Tick::injectorOpenFiles).stat(), sampler.series(Tick::injectorCpu).stat(),
                sampler.series(Tick::machineCpu).stat());
        Map<String, Double> last = sampler.lastServerValues();
        Result.Server server = new Result.Server(
                new Result.Sampling(preflight.samplesServer(settings), sampler.serverMisses(), sampler.serverRefusals(), sampler.firstRefusalSecond()),
                new Result.ServerProcess(settings.watch().targetPid().isPresent() ? settings.watch().targetPid().getAsLong() : null,
                        sampler.targetExitedSecond()),
                new Result.Threads(preflight.targetThreads().isPresent() ? preflight.targetThreads().getAsInt() : null,
                        last.get("jvm_threads_peak_threads"), sampler.series(Tick::serverLiveThreads).stat(),
                        sampler.series(Tick::serverBusyThreads).stat()),
                sampler.series(Tick::serverHeapUsedBytes).stat(), sampler.series(Tick::serverCpu).stat(),
                new Result.Files(sampler.series(Tick::serverOpenFiles).stat(), last.get("process_files_max_files")),
                new Result.Waiting(sampler.series(Tick::serverWaitingRequests).stat(), last.get("hello_waiting_peak")),
                sampler.connectionPool(settings.endpoint().path()),
                sampler.poolsResult((second, users) -> rule.test(second, (double) users), settings.endpoint().http2()));

        Result.Parameters parameters = settings.result();
        parameters = parameters.with(parameters.endpoint().negotiated(Negotiated.counts()));
        return new Result(ResultFile.SCHEMA, simulation, null, parameters, run.startedAt().toString(),
                run.endedAt().toString(), seconds, requests, throughput, plateau, HistogramCodec.percentiles(h),
                HistogramCodec.encoded(h), injector, server, model, open, timeline(sampler.ticks()), problems,
                null, null, byRequest(requestNames, run));
    }

    /** Each request of a mix or a flow on its own, in order; null for a run of one request. */
    private static List<Result.ByRequest> byRequest(List<Named> names, RunRecorder run) {
        if (run.requestKinds() == 0) {
            return null;
        }
        List<Result.ByRequest> each = new java.util.ArrayList<>();
        for (int i = 0; i < run.requestKinds(); i++) {
            Histogram h = run.responseTimes(i);
            each.add(new Result.ByRequest(names.get(i).name(), names.get(i).weight(), run.ok(i), run.ko(i), HistogramCodec.percentiles(h),
                    HistogramCodec.encoded(h)));
        }
        return each;
    }

    private static Result.Open open(SimulationSettings settings, Preflight preflight, RunRecorder run, Sampler sampler,
            ArrivalRecorder arrivals) {
        Optional<OpenModel> any = OpenModel.of(settings, preflight.targetThreads());
        return arrivals.result(OPEN_CONNECTIONS, run.startedAt().toEpochMilli(), spans(run, sampler),
                level -> any.map(m -> m.throughputAt(settings.load().rates().get(level)) * settings.split().shareOfRate(settings.load().rates().get(level))
                        / settings.load().rates().get(level)).orElse(null),
                any.flatMap(m -> m.capacity().isPresent() ? Optional.of(m.capacity().getAsDouble()) : Optional.empty()).orElse(null));
    }

    /** The samples as columns and rows (see Tick#row). */
    private static Result.Timeline timeline(List<Tick> ticks) {
        return new Result.Timeline(Tick.COLUMNS, ticks.stream().map(Tick::row).toList());
    }

    /**
     * What makes this run's numbers not the server's: the target died or refused connections, or no request
     * succeeded. Empty for a run that counts; ./lab fails a run (or sweep point) with any.
     */
    static List<String> problems(SimulationSettings settings, RunRecorder run, Sampler sampler, ArrivalRecorder arrivals) {
        List<String> problems = new ArrayList<>();
        if (arrivals != null && arrivals.unscheduled() > 0) {
            problems.add(("%,d arrivals had user ids outside the injection schedule: their due times are unknown, so the "
                    + "latency from due is not to be trusted (a second scenario, or another Gatling version?)").formatted(arrivals.unscheduled()));
        }
        if (sampler.targetExitedSecond() != null) {
            problems.add("the target JVM (pid %d) exited %.0f s into the run".formatted(settings.watch().targetPid().getAsLong(),
                    sampler.targetExitedSecond()));
        }
        if (sampler.serverRefusals() > 0) {
            problems.add("the target refused connections from %.0f s into the run on (%d of its samples): it was down"
                    .formatted(sampler.firstRefusalSecond(), sampler.serverRefusals()));
        }
        Map<String, Long> refused = CheckedHost.refusals();
        if (!refused.isEmpty()) {
            problems.add(("%,d connections to hosts other than the checked one were refused where Gatling makes them (%s): none reached "
                    + "them, and each request sent there is a KO; a run sends only to %s").formatted(refused.values().stream().mapToLong(Long::longValue).sum(),
                            refused.entrySet().stream().map(e -> e.getKey() + " ×" + e.getValue()).collect(java.util.stream.Collectors.joining(", ")),
                            CheckedHost.host()));
        }
        Map<String, Long> negotiated = Negotiated.counts();
        long http11 = negotiated.getOrDefault(Negotiated.HTTP_1_1, 0L);
        if (settings.endpoint().protocol() == dev.latencylab.load.tls.Protocol.H2 && http11 > 0) {
            problems.add(("HTTP/2 was asked for, but %,d of its %,d TLS connections agreed on HTTP/1.1 by ALPN (the server did not choose h2): "
                    + "the run is not HTTP/2's").formatted(http11, negotiated.values().stream().mapToLong(Long::longValue).sum()));
        }
        long total = run.ok() + run.ko();
        if (total == 0) {
            problems.add("no request completed");
        }
        else if (run.ok() == 0) {
            problems.add("every request failed (%,d KO: %s)".formatted(run.ko(), run.koByReason()));
        }
        return problems;
    }
}
