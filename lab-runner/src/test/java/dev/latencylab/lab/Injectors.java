package dev.latencylab.lab;

import dev.latencylab.load.Result;

/** Result files of a split run for tests of the merge step: a real run's file, relabelled as one injector's part. */
public final class Injectors {

    private Injectors() {
    }

    /** The run as injector i of k, same start and settings, as each injector of one split run records them. */
    public static Result asInjector(Result r, int k, int i) {
        Result.Parameters p = r.parameters();
        Result.Parameters q = new Result.Parameters(p.users(), p.baseUrl(), p.metricsUrl(), p.path(), p.rampSeconds(), p.repeat(), p.thinkMinMs(),
                p.thinkMaxMs(), p.connections(), p.modelThreads(), p.assertP95Ms(), p.assertP99Ms(), p.assertKoPercent(), p.sampleServer(),
                p.targetPid(), p.injection(), p.rates(), p.levelSeconds(), p.arrivals(), p.sloP99Ms(), p.sloKoPercent(), p.stopOnSloMiss(),
                k, i, null);
        return new Result(r.schema(), r.simulation(), q, r.start(), r.end(), r.durationSeconds(), r.requests(), r.throughput(), r.plateau(),
                r.responseTimeMs(), r.histogram(), r.injector(), r.server(), r.model(), r.open(), r.timeline(), r.problems(), null);
    }
}
