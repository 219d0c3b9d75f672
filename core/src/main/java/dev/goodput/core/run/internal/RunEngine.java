package dev.goodput.core.run.internal;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.NanoClock;
import dev.goodput.core.ProgressListener;
import dev.goodput.core.RunSpec;
import dev.goodput.core.RunWatcher;
import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.load.Shard;
import dev.goodput.core.result.RunEnvironment;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.result.internal.RunRecorder;
import dev.goodput.core.result.internal.ServerMetricsSummarizer;
import dev.goodput.core.result.internal.ServerObjectives;
import dev.goodput.core.servermetrics.ServerMetricsResult;
import dev.goodput.core.servermetrics.internal.Scraper;
import dev.goodput.core.transport.ReadTap;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.transport.TransportProvider;
import dev.goodput.core.transport.internal.Preflight;
import dev.goodput.core.transport.internal.Transports;
import dev.goodput.core.workload.SessionWorkload;
import dev.goodput.core.workload.TrafficClassSpec;
import dev.goodput.core.workload.WorkloadMix;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ExecutionException;

/** Wires a spec to a driver, runs it to the end and computes the result. */
public final class RunEngine {

    private static final long PROGRESS_INTERVAL_NANOS = 1_000_000_000L;

    private RunEngine() {}

    /** Returns a recorder for a run of the spec: it redacts the key the spec's server is sent. */
    public static RunRecorder recorder(RunSpec spec) {
        long[] segmentEnds = LookPlan.of(spec.load(), spec.confidence())
                .map(LookPlan::segmentEnds)
                .orElse(new long[0]);
        return new RunRecorder(
                SecretRedaction.of(spec.server().resolveApiKey().orElse(null)),
                dev.goodput.core.result.internal.ClassSplit.classifier(spec),
                segmentEnds);
    }

    /** Returns a driver for the spec's load profile, not started, that hands every finished request to {@code recorder}. */
    public static LoadDriver driver(RunSpec spec, TaskScheduler scheduler, Transport transport, RunRecorder recorder) {
        return driver(spec, Shard.WHOLE, scheduler, transport, recorder);
    }

    /**
     * Returns a driver for {@code shard}'s share of the spec's load profile, not started, that hands every finished
     * request to {@code recorder}.
     */
    public static LoadDriver driver(
            RunSpec spec, Shard shard, TaskScheduler scheduler, Transport transport, RunRecorder recorder) {
        refuseMixedSessions(spec);
        if (spec.load().firstLookRequests().isPresent() && shard.count() > 1) {
            throw InvalidSettingException.conflict(
                    "a run that lasts until decided cannot be sharded: each shard would stop at its own look; give "
                            + "the sharded run a fixed length",
                    "untilDecided",
                    "shard");
        }
        RunOptions options = new RunOptions(
                spec.workload(),
                spec.load(),
                spec.server().requireStreamEnd(),
                spec.outputTokenCounter(),
                recorder.redaction(),
                shard,
                spec.stopWhenServerGone());
        return spec.load().arrivals().isOpenLoop()
                ? new OpenLoopDriver(scheduler, transport, options, recorder)
                : new ClosedLoopDriver(scheduler, transport, options, recorder);
    }

    /**
     * Refuses a session workload as a workload class before any load: its turns must follow each other, which a
     * mix's draw of classes cannot keep. The class itself refuses the built-in ones by their type at once; this
     * catches any other (the spec cannot know sessions, which know results).
     */
    private static void refuseMixedSessions(RunSpec spec) {
        if (spec.workload() instanceof WorkloadMix mix) {
            for (TrafficClassSpec trafficClass : mix.classes()) {
                if (trafficClass.workload() instanceof SessionWorkload) {
                    throw InvalidSettingException.of(
                            "workload of workload class " + trafficClass.name(),
                            trafficClass.workload().describe().get("type"),
                            "cannot be mixed: a session workload sets its own order of turns");
                }
            }
        }
    }

    /**
     * Makes the checks {@link dev.goodput.core.Goodput#run(RunSpec)} makes before any load: the sample size (unless
     * the spec only warns) and the preflight (when on); then, the first time in this JVM for the spec's transports,
     * their warm-up against a loopback server ({@link LoopbackWarmUp}). Returns the spec's transports and the
     * preflight's note.
     */
    public static Checked checkBeforeLoad(RunSpec spec) {
        if (spec.failOnTooFewSamples()) {
            RunSpec.checkSampleSize(spec.load(), spec.objectives(), spec.confidence(), spec.workload());
        }
        TransportProvider transports = Transports.named(spec.transport());
        Optional<String> note = spec.preflight()
                ? Preflight.check(
                        spec.server(),
                        spec.workload().request(0),
                        NanoClock.system(),
                        transports,
                        spec.preflightLoadingWait())
                : Optional.empty();
        // Here, before a shard agrees its start with the others: the first time, this takes a second or two.
        LoopbackWarmUp.once(transports);
        return new Checked(transports, note);
    }

    /**
     * What the checks before the load leave: the spec's transports, and what the preflight had to say (how long it
     * waited for a server still loading), for the result's notes.
     */
    public record Checked(TransportProvider transports, Optional<String> preflightNote) {

        /** Returns {@code result} with the preflight's note, if it has one. */
        public RunResult noted(RunResult result) {
            return preflightNote.map(result::withNote).orElse(result);
        }
    }

    /**
     * Runs {@code shard}'s share of the spec on real time on {@code clock}: a scheduler, a transport of {@code
     * transports} and the spec's scraper; {@code beforeStart} once they are up (a shard waits for its agreed start
     * there); the load, its schedule counted from {@code startNanos} ({@code null} for now); then the server's view
     * summarised and its objectives judged.
     */
    public static RunResult runOnRealTime(
            RunSpec spec,
            Shard shard,
            NanoClock clock,
            TransportProvider transports,
            RunRecorder recorder,
            Runnable beforeStart,
            Long startNanos) {
        try (RealTimeScheduler scheduler = new RealTimeScheduler(clock);
                Transport transport = Transports.open(transports, spec.server(), clock, ReadTap.NONE);
                Scraper scraper = Scraper.start(spec.serverMetrics(), spec.server(), clock)) {
            beforeStart.run();
            RunResult result = run(spec, shard, scheduler, transport, recorder, startNanos);
            ServerMetricsResult view =
                    spec.serverMetrics().isOn() || spec.deployment().isStated()
                            ? ServerMetricsSummarizer.summarize(scraper.finish(), result, spec.deployment())
                            : ServerMetricsResult.NONE;
            RunResult judged = ServerObjectives.apply(result, view, spec.deployment());
            return recorder.servedModelNote(spec.server().model())
                    .map(judged::withNote)
                    .orElse(judged);
        }
    }

    /**
     * Runs the spec on real time and blocks until every request has ended (at the latest one drain period
     * after the last request was created).
     *
     * @throws IllegalStateException if the calling thread is interrupted; in-flight requests are cancelled
     */
    public static RunResult run(RunSpec spec, TaskScheduler scheduler, Transport transport) {
        return run(spec, Shard.WHOLE, scheduler, transport, recorder(spec), null);
    }

    /**
     * Runs {@code shard}'s share of the spec on real time, recording into {@code recorder}, and blocks until every
     * request has ended; the result covers this share alone.
     *
     * @param startNanos the scheduler clock's reading the schedule counts from, or {@code null} for now
     * @throws IllegalStateException if the calling thread is interrupted; in-flight requests are cancelled
     */
    private static RunResult run(
            RunSpec spec,
            Shard shard,
            TaskScheduler scheduler,
            Transport transport,
            RunRecorder recorder,
            Long startNanos) {
        Instant startedAt = Instant.now();
        LoadDriver driver = driver(spec, shard, scheduler, transport, recorder);
        SequentialRun sequential =
                SequentialRun.attach(spec, recorder, driver, scheduler.sideWork(), RunEnvironment.current(startedAt));
        PauseMeter pauses = new PauseMeter().start();
        if (startNanos == null) {
            driver.start();
        } else {
            driver.start(startNanos);
        }
        if (spec.progressListener() != null) {
            reportProgress(spec.progressListener(), driver, scheduler);
        }
        if (spec.watcher() != null) {
            watch(spec.watcher(), driver, scheduler);
        }
        try {
            driver.finished().get();
        } catch (InterruptedException e) {
            pauses.stop();
            driver.cancelAll("the run was interrupted");
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the run was interrupted; in-flight requests were cancelled", e);
        } catch (ExecutionException e) {
            pauses.stop();
            throw new IllegalStateException("the run failed: " + e.getCause(), e.getCause());
        }
        recorder.clientPauses(pauses.stop());
        if (spec.progressListener() != null) {
            spec.progressListener().onProgress(driver.progress());
        }
        RunEnvironment environment = RunEnvironment.current(startedAt);
        RunResult result = sequential == null
                ? ResultCalculator.compute(spec, environment, recorder.snapshot())
                : sequential.result(environment);
        return driver.stopReason().map(result::withStop).orElse(result);
    }

    private static void reportProgress(ProgressListener listener, LoadDriver driver, TaskScheduler scheduler) {
        scheduler.schedule(scheduler.clock().nanoTime() + PROGRESS_INTERVAL_NANOS, () -> {
            if (!driver.finished().isDone()) {
                listener.onProgress(driver.progress());
                reportProgress(listener, driver, scheduler);
            }
        });
    }

    private static void watch(RunWatcher watcher, LoadDriver driver, TaskScheduler scheduler) {
        long interval = Math.max(1, watcher.interval().toNanos());
        scheduler.schedule(scheduler.clock().nanoTime() + interval, () -> {
            if (!driver.finished().isDone()) {
                watcher.onProgress(driver.progress());
                Optional<String> stop = watcher.stopReason();
                if (stop.isPresent()) {
                    driver.cancelAll(stop.get());
                } else {
                    watch(watcher, driver, scheduler);
                }
            }
        });
    }
}
