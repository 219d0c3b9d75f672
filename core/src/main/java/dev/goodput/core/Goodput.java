package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.load.Load;
import dev.goodput.core.load.Shard;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.SteadyState;
import dev.goodput.core.run.internal.RunEngine;
import dev.goodput.core.servermetrics.Deployment;
import dev.goodput.core.servermetrics.ScrapeSettings;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.transport.internal.Transports;
import dev.goodput.core.workload.TokenCounter;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Runs load against an OpenAI-compatible server and measures it.
 *
 * <pre>{@code
 * RunResult result = Goodput.run(
 *         ServerEndpoint.of("http://127.0.0.1:8000", "my-model"),
 *         WorkloadSpec.synthetic().inputTokens(256).outputTokens(128).build(),
 *         Load.poisson(8).requests(2000).warmupRequests(100),
 *         SloSpec.of(Metric.TTFT).percentile(99).atMost(Duration.ofMillis(500)));
 * }</pre>
 *
 * <p>A run blocks the calling thread until every request has ended, at the latest one drain period after the
 * last request was created. Once the load has started it never throws because of what the server did: failures,
 * timeouts and cancellations are outcomes in the result.
 *
 * <p>Before any load, two checks can refuse a run:
 *
 * <ul>
 *   <li>the sample-size check ({@link SampleSize}): a percentile objective that the planned number of measured
 *       requests cannot bound could never be met, so the run is refused with an {@link InvalidSettingException}
 *       saying how many it needs ({@link RunBuilder#failOnTooFewSamples(boolean) failOnTooFewSamples(false)}
 *       only notes it; {@link RunBuilder#sizeForObjectives()} sizes the run instead);
 *   <li>the preflight ({@link RunBuilder#preflight(boolean)}, on by default): the server answers, serves the
 *       model and streams one small request to its end. If not, the run throws a {@link PreflightException}.
 *       This is the one case in which a run throws because of the server, and on purpose: a wrong URL, a wrong
 *       model name or a server that does not stream would otherwise make a run of nothing but identical
 *       failures, minutes long, whose verdict blames the objectives rather than the setup.
 * </ul>
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Goodput {

    private Goodput() {}

    /** Starts building a run against the given server. */
    public static RunBuilder newRun(ServerEndpoint server) {
        return new RunBuilder(server);
    }

    /** Runs a workload at a load profile and judges the objectives. */
    public static RunResult run(ServerEndpoint server, WorkloadSpec workload, Load load, SloSpec... objectives) {
        return run(server, workload, load, List.of(objectives));
    }

    /** Runs a workload at a load profile and judges the objectives. */
    public static RunResult run(ServerEndpoint server, WorkloadSpec workload, Load load, List<SloSpec> objectives) {
        return newRun(server)
                .workload(workload)
                .load(load)
                .objectives(objectives)
                .run();
    }

    /**
     * Runs a spec on real time: the sample-size check, the preflight (when on), then the load.
     *
     * @throws InvalidSettingException if the load is too small for a percentile objective to be met (unless the
     *     spec only warns); nothing was sent
     * @throws PreflightException if the preflight is on and the server failed it; no load was sent
     * @throws IllegalStateException if the API key variable is named but not set, or the thread is interrupted
     */
    public static RunResult run(RunSpec spec) {
        RunEngine.Checked checked = RunEngine.checkBeforeLoad(spec);
        return checked.noted(RunEngine.runOnRealTime(
                spec, Shard.WHOLE, NanoClock.system(), checked.transports(), RunEngine.recorder(spec), () -> {}, null));
    }

    /**
     * Builds a {@link RunSpec} and runs it: what the short form leaves at defaults (percentiles, confidence, a
     * client tokenizer, the send-lag limit, progress and a watcher).
     */
    @API(status = EXPERIMENTAL, since = "0.2")
    public static final class RunBuilder {
        // The spec's settings live in its one mutable mirror; only how to build it lives here.
        private final RunSpec.Draft draft;
        private boolean sizeForObjectives;

        RunBuilder(ServerEndpoint server) {
            this.draft = new RunSpec.Draft(Objects.requireNonNull(server, "server"));
        }

        /** Sets what to send. */
        public RunBuilder workload(WorkloadSpec value) {
            draft.workload = Objects.requireNonNull(value, "workload");
            return this;
        }

        /** Sets how hard and how long. */
        public RunBuilder load(Load value) {
            draft.load = Objects.requireNonNull(value, "load");
            return this;
        }

        /** Adds objectives. */
        public RunBuilder objectives(SloSpec... values) {
            return objectives(List.of(values));
        }

        /** Adds objectives. */
        public RunBuilder objectives(List<SloSpec> values) {
            values.forEach(slo -> draft.objectives.add(Objects.requireNonNull(slo, "slo")));
            return this;
        }

        /** Replaces the reported percentiles (default 50, 90, 95, 99, 99.9). */
        public RunBuilder percentiles(double... values) {
            List<Double> list = new ArrayList<>();
            for (double value : values) {
                list.add(value);
            }
            draft.percentiles = list;
            return this;
        }

        /** Sets the confidence level of the intervals (default 0.95). */
        public RunBuilder confidence(double value) {
            draft.confidence = value;
            return this;
        }

        /** Counts generated tokens on the client too (and instead, when the server sends no usage). */
        public RunBuilder outputTokenCounter(TokenCounter value) {
            draft.outputTokenCounter = value;
            return this;
        }

        /** Sets the p99 send lag above which the client is reported as not keeping up (default 50 ms). */
        public RunBuilder sendLagLimit(Duration value) {
            draft.sendLagLimit = value;
            return this;
        }

        /** Reports how far the run has got about once a second (for a progress line). */
        public RunBuilder progress(ProgressListener value) {
            draft.progressListener = value;
            return this;
        }

        /** Lets a watcher follow the run at its own interval and end it early (a sweep's per-run limits). */
        public RunBuilder watcher(RunWatcher value) {
            draft.watcher = value;
            return this;
        }

        /**
         * Turns the preflight on (the default) or off. Before any load it checks that the server answers, that
         * {@code GET /v1/models} lists the model (where the server has that endpoint), and that one streaming
         * request of 2 tokens (the run's API kind, the endpoint's key) streams and ends; a failure throws a
         * {@link PreflightException} naming what was tried and what came back. Its request is not part of the
         * result. Turn it off for a server that must receive exactly the run's requests.
         */
        public RunBuilder preflight(boolean value) {
            draft.preflight = value;
            return this;
        }

        /**
         * Sets how long the preflight waits for a server still loading its model (default 2 minutes; zero fails at
         * once). A server that answers 503 to the model list or to the small request, as llama-server does with
         * {@code Loading model} until its model is in memory, is asked again every half second until it answers
         * otherwise or the wait is over; the result then notes how long the preflight waited, and a wait that ran
         * out fails the preflight saying so. A refused connection is not waited for: it fails at once.
         *
         * @throws InvalidSettingException (when the spec is built) for a negative wait
         */
        public RunBuilder preflightLoadingWait(Duration value) {
            draft.preflightLoadingWait = Objects.requireNonNull(value, "preflightLoadingWait");
            return this;
        }

        /**
         * Stops the run early when the server is plainly gone (false by default: the run sends its whole schedule
         * and counts every request, whatever the server does). Gone means {@value RunSpec#SERVER_GONE_AFTER} requests
         * in a row found no server to connect to (refused, unreachable, connect timeout) with no answer of the
         * server between them; the run then creates no more requests and cancels those still waiting or in flight,
         * so every request created still ends in one outcome, and the result notes why and how many requests the
         * schedule had left. As k6's {@code abortOnFail}: a server that died does not get the rest of a long run sent
         * into a refused port.
         */
        public RunBuilder stopWhenServerGone(boolean value) {
            draft.stopWhenServerGone = value;
            return this;
        }

        /**
         * Sets whether a load too small for a percentile objective to be met refuses the run before any load (true,
         * the default) or only adds a note to the result (false), for runs whose inconclusive verdicts are accepted.
         * See {@link SampleSize}.
         */
        public RunBuilder failOnTooFewSamples(boolean value) {
            draft.failOnTooFewSamples = value;
            return this;
        }

        /**
         * Judges only the steady part of the run (true) instead of the whole measurement window (false, the
         * default): summaries, run-level values and verdicts cover the measured requests that started inside the
         * {@link SteadyState} window, rates are over its length; the accounting still counts every request. When no
         * steady state is found every verdict is {@link Verdict#INCONCLUSIVE}, naming why. See docs/metrics.md.
         */
        @API(status = EXPERIMENTAL, since = "0.2")
        public RunBuilder judgeSteadyStateOnly(boolean value) {
            draft.judgeSteadyStateOnly = value;
            return this;
        }

        /**
         * Chooses the HTTP client that sends: {@code "jdk"}, the JDK's {@code java.net.http} (the default), or
         * {@code "netty"}, which costs less CPU per token and stamps tokens closer to their arrival but needs
         * {@code dev.goodput:goodput-transport-netty} on the class path. Without this call the JVM system property
         * {@code goodput.client.transport} chooses, else {@code "jdk"}. An unknown name, or {@code "netty"} without its
         * module, is refused at once with an {@link InvalidSettingException} saying what is available. See
         * docs/transports.md.
         */
        public RunBuilder transport(String value) {
            Transports.named(Objects.requireNonNull(value, "transport"));
            draft.transport = value;
            return this;
        }

        /**
         * Sets the load's request limit to what the strictest percentile objective needs to be met (368 measured
         * requests for a p99 at 95 %), plus the load's warm-up and cool-down: counted ones as they are, time-based
         * ones of an open loop as rate x time. A request limit the load had is replaced; a duration limit stays, as a
         * cap on time (if it is too short, the sample-size check says so). So give the load any limit, for example
         * {@code Load.poisson(8).duration(Duration.ofMinutes(5)).warmupRequests(20)}. Failed requests give no
         * sample, so a run with errors can still end inconclusive. See {@link SampleSize#sizedFor}.
         */
        public RunBuilder sizeForObjectives() {
            sizeForObjectives = true;
            return this;
        }

        /**
         * Sets which Prometheus endpoints to scrape during the run; by default the server's own {@code /metrics}
         * once a second ({@code docs/server-metrics.md}).
         */
        public RunBuilder serverMetrics(ScrapeSettings value) {
            draft.serverMetrics = Objects.requireNonNull(value, "serverMetrics");
            return this;
        }

        /** States what the server runs on: GPUs, their price, the model's size (for cost and the bandwidth check). */
        public RunBuilder deployment(Deployment value) {
            draft.deployment = Objects.requireNonNull(value, "deployment");
            return this;
        }

        /**
         * Returns the validated spec.
         *
         * @throws InvalidSettingException naming the first setting that is missing or does not fit
         */
        public RunSpec build() {
            if (draft.workload == null) {
                throw InvalidSettingException.conflict(
                        name -> "a run needs a " + name.apply("workload") + ": call workload(...)", "workload");
            }
            if (draft.load == null) {
                throw InvalidSettingException.conflict(
                        name -> "a run needs a " + name.apply("load") + " profile: call load(...)", "load");
            }
            return draft.build(
                    sizeForObjectives
                            ? SampleSize.sizedFor(draft.load, draft.objectives, draft.confidence, draft.workload)
                            : draft.load);
        }

        /** Builds the spec and runs it; see {@link Goodput#run(RunSpec)}. */
        public RunResult run() {
            return Goodput.run(build());
        }
    }
}
