package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.load.Arrivals;
import dev.goodput.core.load.Load;
import dev.goodput.core.result.SteadyState;
import dev.goodput.core.servermetrics.Deployment;
import dev.goodput.core.servermetrics.ScrapeSettings;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.transport.internal.Transports;
import dev.goodput.core.workload.SyntheticWorkload;
import dev.goodput.core.workload.TokenCounter;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * Everything a run needs, validated as a whole: the server, the workload, the load profile, the objectives
 * and how to summarise. Build one with {@link Goodput#newRun(ServerEndpoint)}.
 *
 * <p>Longer than 300 lines because a record spells out each component in its canonical constructor and in the
 * one mutable {@code Draft} that its {@code withX} methods and {@link Goodput.RunBuilder} fill in; the checks of the
 * values sit beside them.
 *
 * @param server the server under test
 * @param workload what to send
 * @param load how hard and how long
 * @param objectives the objectives; may be empty
 * @param percentiles the percentiles every summary reports (the median and the objectives' percentiles are
 *     always added)
 * @param confidence the confidence level of the intervals behind the verdicts, for example 0.95
 * @param outputTokenCounter a client tokenizer for generated text, or {@code null}
 * @param sendLagLimit the p99 send lag above which the client is reported as not keeping up
 * @param progressListener told how far the run has got about once a second, or {@code null}
 * @param watcher told how far the run has got at its own interval and asked whether to end the run early, or
 *     {@code null}
 * @param preflight whether {@link Goodput#run(RunSpec)} first checks that the server answers, serves the model
 *     and streams one small request to its end (default true; see {@link Goodput.RunBuilder#preflight(boolean)})
 * @param failOnTooFewSamples whether {@link Goodput#run(RunSpec)} refuses a load too small for a percentile
 *     objective to be met (default true), or only notes it in the result ({@link SampleSize})
 * @param serverMetrics which Prometheus endpoints to scrape during the run (default: the server's own
 *     {@code /metrics} once a second; {@link ScrapeSettings})
 * @param deployment what the server runs on, as stated, for cost and the bandwidth check (default
 *     {@link Deployment#UNSTATED})
 * @param transport the HTTP client that sends: {@code "jdk"} (the JDK's, the default) or {@code "netty"} (needs
 *     {@code dev.goodput:goodput-transport-netty} on the class path); see docs/transports.md
 * @param judgeSteadyStateOnly whether summaries, run-level values and verdicts cover only the measured requests
 *     that started inside the {@link SteadyState} window (default false: the whole measurement window); without a
 *     steady state every verdict is inconclusive, see {@link Goodput.RunBuilder#judgeSteadyStateOnly(boolean)}
 * @param preflightLoadingWait how long the preflight waits for a server that answers 503 (still loading its model)
 *     before it fails (default {@link #DEFAULT_PREFLIGHT_LOADING_WAIT}; zero fails at once); see {@link
 *     Goodput.RunBuilder#preflightLoadingWait(Duration)}
 * @param stopWhenServerGone whether the run stops early, creating no more requests, once the server is plainly
 *     gone: {@link #SERVER_GONE_AFTER} requests in a row found no server to connect to (default false); see {@link
 *     Goodput.RunBuilder#stopWhenServerGone(boolean)}
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RunSpec(
        ServerEndpoint server,
        WorkloadSpec workload,
        Load load,
        List<SloSpec> objectives,
        List<Double> percentiles,
        double confidence,
        TokenCounter outputTokenCounter,
        Duration sendLagLimit,
        ProgressListener progressListener,
        RunWatcher watcher,
        boolean preflight,
        boolean failOnTooFewSamples,
        ScrapeSettings serverMetrics,
        Deployment deployment,
        String transport,
        boolean judgeSteadyStateOnly,
        Duration preflightLoadingWait,
        boolean stopWhenServerGone) {

    /** The percentiles reported by default: 50, 90, 95, 99 and 99.9. */
    public static final List<Double> DEFAULT_PERCENTILES = List.of(50.0, 90.0, 95.0, 99.0, 99.9);

    /** The default confidence level, 95 %. */
    public static final double DEFAULT_CONFIDENCE = 0.95;

    /**
     * The default send-lag limit, 50 ms at p99. A client that really falls behind lags by seconds; a JVM on a
     * shared 2-core runner lags by 10-20 ms now and then (GC pauses, opening connections), which is not worth
     * failing a gate for.
     */
    public static final Duration DEFAULT_SEND_LAG_LIMIT = Duration.ofMillis(50);

    /**
     * The default wait of the preflight for a server still loading its model, 2 minutes: llama-server loads an 8B
     * model from a warm page cache in seconds and from disk in well under a minute; a wait that long for a server
     * that never gets ready only delays a failure that says why.
     */
    public static final Duration DEFAULT_PREFLIGHT_LOADING_WAIT = Duration.ofMinutes(2);

    /**
     * How many requests in a row must find no server to connect to (refused, unreachable, connect timeout), with
     * no answer of the server between them, before a run that stops when the server is gone stops.
     */
    public static final int SERVER_GONE_AFTER = 20;

    public RunSpec {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(load, "load");
        objectives = List.copyOf(objectives);
        // The median is always reported: summaries and the vLLM block need it.
        TreeSet<Double> sorted = new TreeSet<>(List.of(50.0));
        for (Double percentile : percentiles) {
            if (percentile == null || !(percentile > 0 && percentile <= 100)) {
                throw InvalidSettingException.of("percentiles", percentile, "must be above 0 and at most 100");
            }
            sorted.add(percentile);
        }
        for (SloSpec slo : objectives) {
            if (slo.statistic() == SloSpec.Statistic.PERCENTILE) {
                sorted.add(slo.percentile());
            }
        }
        percentiles = List.copyOf(sorted);
        if (!(confidence > 0 && confidence < 1)) {
            throw InvalidSettingException.of("confidence", confidence, "must be between 0 and 1 (exclusive)");
        }
        Objects.requireNonNull(sendLagLimit, "sendLagLimit");
        if (sendLagLimit.isNegative() || sendLagLimit.isZero()) {
            throw InvalidSettingException.of("sendLagLimit", sendLagLimit, "must be positive");
        }
        Objects.requireNonNull(serverMetrics, "serverMetrics");
        Objects.requireNonNull(deployment, "deployment");
        Objects.requireNonNull(transport, "transport");
        Transports.named(transport);
        Objects.requireNonNull(preflightLoadingWait, "preflightLoadingWait");
        if (preflightLoadingWait.isNegative()) {
            throw InvalidSettingException.of("preflightLoadingWait", preflightLoadingWait, "must not be negative");
        }
        checkFits(workload, load, objectives);
    }

    /**
     * Checks that a workload, a load and objectives fit together, as every spec's constructor does; a front end
     * that must refuse bad input before it starts a server (the JUnit extension) calls it early.
     *
     * @throws InvalidSettingException naming the settings that do not fit
     */
    public static void checkFits(WorkloadSpec workload, Load load, List<SloSpec> objectives) {
        boolean traceArrivals = load.arrivals() instanceof Arrivals.TraceTimes;
        if (traceArrivals != workload instanceof dev.goodput.core.workload.TimedWorkload) {
            throw InvalidSettingException.conflict(
                    name -> traceArrivals
                            ? "Load.traceReplay() needs a trace " + name.apply("workload") + " (a TimedWorkload), was "
                                    + workload.describe()
                            : "a trace " + name.apply("workload")
                                    + " replays its own arrival times: use Trace.load() or"
                                    + " Load.traceReplay(), not " + load,
                    "load",
                    "workload");
        }
        if (traceArrivals) {
            long size = ((dev.goodput.core.workload.TimedWorkload) workload).size();
            long requests = load.limits().requests().orElse(0);
            if (requests == 0 || requests > size) {
                throw InvalidSettingException.of(
                        "requests",
                        requests == 0 ? "none" : requests,
                        "must be between 1 and the trace's " + size + " requests for a trace replay");
            }
        }
        dev.goodput.core.result.internal.ClassObjectives.check(workload, objectives);
        if (workload instanceof SyntheticWorkload synthetic && synthetic.outputTokens() < 2) {
            for (SloSpec slo : objectives) {
                if (slo.metric().needsTwoTokens()) {
                    throw InvalidSettingException.conflict(
                            name -> "an objective on " + slo.metric() + " needs at least 2 output tokens per request"
                                    + " (a gap between tokens), but the workload asks for " + name.apply("outputTokens")
                                    + " = " + synthetic.outputTokens(),
                            "objectives",
                            "outputTokens");
                }
            }
        }
    }

    /**
     * Checks that a load plans enough measured requests for every percentile objective to be met, as
     * {@link Goodput#run(RunSpec)} does before any load unless {@link #failOnTooFewSamples()} is off; a front end
     * (the JUnit extension) calls it early, one objective at a time, to name the annotation. A closed loop with
     * only a duration limit passes: its count is not known before the run ({@link SampleSize#note()}).
     *
     * @throws InvalidSettingException naming the first objective the load is too small for, what it needs and what
     *     the load plans, for example {@code "p99.9 TTFT needs at least 3,688 measured requests for a 95% upper
     *     bound; the load plans 100 (requests 110 - warmupRequests 10)"}; an objective on a class of a {@link
     *     dev.goodput.core.workload.WorkloadMix} {@code workload} is planned the class's share of the load
     */
    public static void checkSampleSize(Load load, List<SloSpec> objectives, double confidence, WorkloadSpec workload) {
        List<SampleSize> sizes = SampleSize.of(load, objectives, confidence, workload);
        for (int i = 0; i < sizes.size(); i++) {
            if (sizes.get(i).isTooFew()) {
                int index = i;
                throw InvalidSettingException.conflict(
                        name -> SampleSize.of(load, objectives, confidence, workload, name)
                                .get(index)
                                .describe(),
                        "objectives",
                        "requests",
                        "duration",
                        "warmupRequests",
                        "cooldownRequests");
            }
        }
    }

    /** Returns what this spec's load plans against what each percentile objective needs ({@link SampleSize}). */
    public List<SampleSize> sampleSizes() {
        return SampleSize.of(load, objectives, confidence, workload);
    }

    /**
     * Returns what a run of this spec should say besides its numbers: each percentile objective the load is too
     * small for (when the check only warns), and each whose count cannot be known before the run.
     */
    public List<String> notes() {
        return sampleSizes().stream()
                .map(SampleSize::note)
                .filter(Objects::nonNull)
                .toList();
    }

    /** Returns this spec with another load, checked against the workload and objectives like the first. */
    public RunSpec withLoad(Load value) {
        return copy(c -> c.load = value);
    }

    /** Returns this spec with another progress listener ({@code null} for none). */
    public RunSpec withProgress(ProgressListener value) {
        return copy(c -> c.progressListener = value);
    }

    /** Returns this spec with another watcher ({@code null} for none). */
    public RunSpec withWatcher(RunWatcher value) {
        return copy(c -> c.watcher = value);
    }

    /** Returns this spec with the preflight on or off. */
    public RunSpec withPreflight(boolean value) {
        return copy(c -> c.preflight = value);
    }

    /** Returns this spec refusing (true) or only noting (false) a load too small for its percentile objectives. */
    public RunSpec withFailOnTooFewSamples(boolean value) {
        return copy(c -> c.failOnTooFewSamples = value);
    }

    /** Returns this spec scraping the server's metrics as {@code value} says. */
    public RunSpec withServerMetrics(ScrapeSettings value) {
        return copy(c -> c.serverMetrics = value);
    }

    /** Returns this spec judging only the steady-state window (true) or the whole measurement window (false). */
    public RunSpec withJudgeSteadyStateOnly(boolean value) {
        return copy(c -> c.judgeSteadyStateOnly = value);
    }

    /** Returns this spec with another wait of the preflight for a server still loading its model. */
    public RunSpec withPreflightLoadingWait(Duration value) {
        return copy(c -> c.preflightLoadingWait = value);
    }

    /** Returns this spec stopping early (true) or not (false) once the server is plainly gone. */
    public RunSpec withStopWhenServerGone(boolean value) {
        return copy(c -> c.stopWhenServerGone = value);
    }

    /** Returns this spec with a stated deployment (GPUs, price, model size). */
    public RunSpec withDeployment(Deployment value) {
        return copy(c -> c.deployment = value);
    }

    /** Returns a copy with the changes {@code change} makes, checked by the canonical constructor like any spec. */
    private RunSpec copy(Consumer<Draft> change) {
        Draft draft = new Draft(this);
        change.accept(draft);
        return draft.build(draft.load);
    }

    /**
     * A spec's components before the canonical constructor checks them: the one mutable mirror of this record. Every
     * {@code withX} changes one of a spec's, and {@link Goodput.RunBuilder} sets them one by one from the defaults.
     */
    static final class Draft {
        ServerEndpoint server;
        WorkloadSpec workload;
        Load load;
        List<SloSpec> objectives;
        List<Double> percentiles;
        double confidence;
        TokenCounter outputTokenCounter;
        Duration sendLagLimit;
        ProgressListener progressListener;
        RunWatcher watcher;
        boolean preflight;
        boolean failOnTooFewSamples;
        ScrapeSettings serverMetrics;
        Deployment deployment;
        String transport;
        boolean judgeSteadyStateOnly;
        Duration preflightLoadingWait;
        boolean stopWhenServerGone;

        /** The defaults against {@code server}; a workload and a load are still to be set. */
        Draft(ServerEndpoint server) {
            this.server = server;
            objectives = new ArrayList<>();
            percentiles = DEFAULT_PERCENTILES;
            confidence = DEFAULT_CONFIDENCE;
            sendLagLimit = DEFAULT_SEND_LAG_LIMIT;
            preflight = true;
            failOnTooFewSamples = true;
            serverMetrics = ScrapeSettings.DEFAULT;
            deployment = Deployment.UNSTATED;
            transport = Transports.configuredName();
            preflightLoadingWait = DEFAULT_PREFLIGHT_LOADING_WAIT;
        }

        /** The components of {@code spec}. */
        Draft(RunSpec spec) {
            server = spec.server;
            workload = spec.workload;
            load = spec.load;
            objectives = spec.objectives;
            percentiles = spec.percentiles;
            confidence = spec.confidence;
            outputTokenCounter = spec.outputTokenCounter;
            sendLagLimit = spec.sendLagLimit;
            progressListener = spec.progressListener;
            watcher = spec.watcher;
            preflight = spec.preflight;
            failOnTooFewSamples = spec.failOnTooFewSamples;
            serverMetrics = spec.serverMetrics;
            deployment = spec.deployment;
            transport = spec.transport;
            judgeSteadyStateOnly = spec.judgeSteadyStateOnly;
            preflightLoadingWait = spec.preflightLoadingWait;
            stopWhenServerGone = spec.stopWhenServerGone;
        }

        /** Returns the checked spec, with {@code finalLoad} for the load (a builder may have sized it). */
        RunSpec build(Load finalLoad) {
            return new RunSpec(
                    server,
                    workload,
                    finalLoad,
                    objectives,
                    percentiles,
                    confidence,
                    outputTokenCounter,
                    sendLagLimit,
                    progressListener,
                    watcher,
                    preflight,
                    failOnTooFewSamples,
                    serverMetrics,
                    deployment,
                    transport,
                    judgeSteadyStateOnly,
                    preflightLoadingWait,
                    stopWhenServerGone);
        }
    }

    /** Returns the objectives that also judge single requests (their bounds define a good request). */
    public List<SloSpec> requestCriteria() {
        return objectives.stream().filter(SloSpec::isRequestCriterion).toList();
    }
}
