package dev.goodput.core.bench.coverage;

import dev.goodput.core.Goodput;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.result.internal.RunSnapshot;
import dev.goodput.core.run.internal.LoadDriver;
import dev.goodput.core.run.internal.RunEngine;
import dev.goodput.core.run.internal.SequentialRun;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.testing.FakeScheduler;
import dev.goodput.core.testing.VirtualTimeServer;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Instant;
import java.util.List;

/**
 * One gate run end to end on virtual time: the real load driver ({@link RunEngine#driver}) sends open-loop
 * Poisson arrivals through the real client (each attempt's SSE bytes parsed as from a socket) to a {@link
 * VirtualTimeServer}; the real recorder keeps the records; {@link #judge} hands them to the real {@link
 * ResultCalculator}, which judges the objectives as a gate would. Nothing sleeps: a run of thousands of requests
 * takes milliseconds.
 *
 * @param spec the run's spec (its objectives are the first set judged)
 * @param snapshot what the recorder kept
 * @param truths what the server knows of each request
 * @param sequentialResult the result of a run that lasted until decided, as its gate saw it; {@code null} for a run
 *     of fixed length
 */
public record VirtualGateRun(
        RunSpec spec, RunSnapshot snapshot, List<VirtualTimeServer.Truth> truths, RunResult sequentialResult) {

    private static final long START_NANOS = 1_000_000_000L;
    private static final RunEnvironment ENVIRONMENT = RunEnvironment.current(Instant.EPOCH);

    /**
     * Runs {@code measured} requests after {@code warmup} discarded ones at {@code rate} requests/s, arrivals and the
     * server's own randomness seeded with {@code seed}.
     */
    public static VirtualGateRun of(
            ServerPreset preset, double rate, long warmup, long measured, long seed, List<SloSpec> objectives) {
        return of(
                preset,
                Load.poisson(rate)
                        .requests(warmup + measured)
                        .warmupRequests(warmup)
                        .seed(seed),
                seed,
                objectives);
    }

    /**
     * Runs {@code load}, the server's own randomness seeded with {@code seed}; a load that lasts until decided
     * ({@link Load#untilDecided}) looks at its objectives as {@link RunEngine} has it do, and stops where they say.
     */
    public static VirtualGateRun of(ServerPreset preset, Load load, long seed, List<SloSpec> objectives) {
        RunSpec spec = spec(preset, load, objectives);
        FakeScheduler scheduler = new FakeScheduler(START_NANOS);
        VirtualTimeServer server = preset.withServerSeed(seed).server(scheduler, seed);
        RunRecorder recorder = RunEngine.recorder(spec);
        LoadDriver driver = RunEngine.driver(spec, scheduler, server, recorder);
        SequentialRun sequential = SequentialRun.attach(spec, recorder, driver, scheduler.sideWork(), ENVIRONMENT);
        driver.start();
        scheduler.runUntilIdle(Integer.MAX_VALUE - 1);
        if (!driver.finished().isDone()) {
            throw new IllegalStateException("the run did not finish on virtual time");
        }
        return new VirtualGateRun(
                spec, recorder.snapshot(), server.truths(), sequential == null ? null : sequential.result(ENVIRONMENT));
    }

    /** Judges the run's own objectives (a run that lasted until decided: at its deciding look, as its gate did). */
    public RunResult judge() {
        return sequentialResult != null ? sequentialResult : ResultCalculator.compute(spec, ENVIRONMENT, snapshot);
    }

    /** Judges other objectives on the same requests, as a gate with those objectives would have. */
    public RunResult judge(List<SloSpec> objectives) {
        return ResultCalculator.compute(spec(spec, objectives), ENVIRONMENT, snapshot);
    }

    private static RunSpec spec(ServerPreset preset, Load load, List<SloSpec> objectives) {
        return Goodput.newRun(ServerEndpoint.of("http://127.0.0.1:1", "virtual"))
                .workload(WorkloadSpec.synthetic()
                        .inputTokens(preset.promptTokens())
                        .outputTokens(preset.outputTokens())
                        .seed(1)
                        .build())
                .load(load)
                .objectives(objectives)
                .failOnTooFewSamples(false)
                .preflight(false)
                .build();
    }

    private static RunSpec spec(RunSpec like, List<SloSpec> objectives) {
        return Goodput.newRun(like.server())
                .workload(like.workload())
                .load(like.load())
                .objectives(objectives)
                .failOnTooFewSamples(false)
                .preflight(false)
                .build();
    }
}
