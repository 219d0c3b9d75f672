package dev.goodput.core.ab;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.Goodput;
import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.RunSpec;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.ab.internal.ABEngine;
import dev.goodput.core.ab.internal.BlockOrder;
import dev.goodput.core.ab.internal.ComparedStatistic;
import dev.goodput.core.ab.internal.OffsetWorkload;
import dev.goodput.core.compare.BaselineComparator;
import dev.goodput.core.load.Arrivals;
import dev.goodput.core.load.Load;
import dev.goodput.core.run.internal.LookPlan;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.workload.WorkloadSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import org.apiguardian.api.API;

/**
 * An A/B run: a baseline server and a candidate server, both up, judged against each other in one run on one
 * machine ({@code docs/ci-gates.md}).
 *
 * <pre>{@code
 * ABResult result = ABRun.newRun(mainServer, branchServer)
 *         .workload(WorkloadSpec.synthetic().inputTokens(128).outputTokens(64).seed(1).build())
 *         .load(Load.poisson(20).requests(44).warmupRequests(4))   // one block
 *         .pairs(8, 32)
 *         .run();
 * }</pre>
 *
 * <p>The run offers its load in blocks, one arm at a time: each pair of blocks gives both servers the same
 * requests (the same prompts, the same arrival offsets from the block's start), and pairs run in a balanced,
 * seeded order (ABBA or BAAB for every four blocks). Whatever the machine does over a pair's few seconds hits both
 * arms nearly alike, so the paired ratio of each statistic is far less noisy than a comparison of two runs made at
 * different times. Only one arm is under load at a time: two servers loaded at once would compete for the same CPU,
 * memory bandwidth or GPU, and each arm's figures would depend on the other's.
 *
 * <p>After {@code first} pairs and each time their count has doubled, up to {@code max}, the run looks at its
 * changes ({@link PairedChange}), each interval at the confidence that keeps all looks together at the run's
 * ({@code docs/metrics.md#runs-that-last-until-decided}); it stops when every change is decided, when one is
 * REGRESSED (unless {@link #stopOnRegression(boolean) told not to}), or at {@code max} pairs. Objectives are
 * judged once, at the end, on the candidate's blocks pooled.
 *
 * <p>Settings are checked as they are set and when the run is built; a refusal is an {@link
 * InvalidSettingException} naming the setting.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class ABRun {

    /** The default minimum practical change of an A/B run, 4 %: see {@code docs/ci-gates.md#choosing-the-settings}. */
    public static final double DEFAULT_MINIMUM_CHANGE = 0.04;

    /** The default pairs of blocks at the first look. */
    public static final int DEFAULT_FIRST_LOOK_PAIRS = 8;

    /** The default most pairs of blocks a run offers. */
    public static final int DEFAULT_MAX_PAIRS = 32;

    private final ServerEndpoint baseline;
    private final ServerEndpoint candidate;
    private WorkloadSpec workload;
    private Load block;
    private final List<SloSpec> objectives = new ArrayList<>();
    private int firstLookPairs = DEFAULT_FIRST_LOOK_PAIRS;
    private int maxPairs = DEFAULT_MAX_PAIRS;
    private double minimumChange = DEFAULT_MINIMUM_CHANGE;
    private double confidence = RunSpec.DEFAULT_CONFIDENCE;
    private long seed;
    private boolean stopOnRegression = true;
    private boolean preflight = true;
    private String transport;
    private Consumer<String> progress = line -> {};

    private ABRun(ServerEndpoint baseline, ServerEndpoint candidate) {
        this.baseline = Objects.requireNonNull(baseline, "baseline");
        this.candidate = Objects.requireNonNull(candidate, "candidate");
    }

    /** Starts an A/B run of {@code candidate} against {@code baseline}. */
    public static ABRun newRun(ServerEndpoint baseline, ServerEndpoint candidate) {
        return new ABRun(baseline, candidate);
    }

    /**
     * Starts an A/A run: the same server as both arms. Its changes show the run's own noise: what the gate would
     * report for a change that does nothing, and each statistic's minimum detectable change on this machine.
     */
    public static ABRun sameServer(ServerEndpoint server) {
        return new ABRun(server, server);
    }

    /** Sets what to send; pair {@code k} offers both arms positions {@code k * blockRequests} onwards. */
    public ABRun workload(WorkloadSpec value) {
        this.workload = Objects.requireNonNull(value, "workload");
        return this;
    }

    /**
     * Sets one block's load: its arrivals (open or closed loop), its request limit (the block's length, warm-up
     * included), its warm-up (each block's own, to bring a server back from idle), its request policy and drain.
     * Random arrivals get a seed of their own per pair, the same for both arms of the pair.
     *
     * @throws InvalidSettingException if the load has no request limit, has a duration limit, lasts until decided,
     *     or replays a trace's times
     */
    public ABRun load(Load value) {
        Objects.requireNonNull(value, "load");
        if (value.limits().requests().isEmpty() || value.limits().duration().isPresent()) {
            throw InvalidSettingException.of(
                    "load",
                    value.toString(),
                    "needs a request limit and no duration limit: both blocks of a pair must offer the same"
                            + " requests, and a time limit could cut one arm's short");
        }
        if (value.firstLookRequests().isPresent()) {
            throw InvalidSettingException.conflict(
                    "an A/B block has a fixed length; the A/B run itself lasts until decided: set pairs(first, max)"
                            + " instead of untilDecided on the block's load",
                    "load",
                    "pairs");
        }
        if (value.arrivals() instanceof Arrivals.TraceTimes) {
            throw InvalidSettingException.of(
                    "load", value.toString(), "cannot replay a trace's times in blocks; use a rate or users");
        }
        this.block = value;
        return this;
    }

    /** Sets the objectives, judged on the candidate's blocks pooled; their statistics are compared too. */
    public ABRun objectives(List<SloSpec> values) {
        objectives.clear();
        objectives.addAll(values);
        return this;
    }

    /** Sets the objectives; see {@link #objectives(List)}. */
    public ABRun objectives(SloSpec... values) {
        return objectives(List.of(values));
    }

    /**
     * Sets when the run first looks, in pairs of blocks, and the most pairs it offers (defaults 8 and 32).
     *
     * @throws InvalidSettingException unless {@code 6 <= first <= max <= 1024}
     */
    public ABRun pairs(int first, int max) {
        if (first < 6) {
            throw InvalidSettingException.of(
                    "pairs.first", first, "must be at least 6: fewer pairs give no sign-test interval at 95 %");
        }
        if (max < first || max > 1024) {
            throw InvalidSettingException.of(
                    "pairs.max", max, "must be at least pairs.first (" + first + ") and at most 1024");
        }
        this.firstLookPairs = first;
        this.maxPairs = max;
        return this;
    }

    /**
     * Sets the minimum practical change (default {@value #DEFAULT_MINIMUM_CHANGE}): a change smaller than this is
     * never REGRESSED or IMPROVED, and UNCHANGED needs the interval inside plus or minus it.
     *
     * @throws InvalidSettingException unless {@code 0 < value < 1}
     */
    public ABRun minimumChange(double value) {
        if (!(value > 0 && value < 1)) {
            throw InvalidSettingException.of("minimumChange", value, "must be above 0 and below 1, for example 0.05");
        }
        this.minimumChange = value;
        return this;
    }

    /** Sets the run's overall confidence (default 0.95), strictly between 0 and 1. */
    public ABRun confidence(double value) {
        if (!(value > 0 && value < 1)) {
            throw InvalidSettingException.of("confidence", value, "must be strictly between 0 and 1");
        }
        this.confidence = value;
        return this;
    }

    /** Sets the seed of the block order (default 0); the same seed gives the same order. */
    public ABRun seed(long value) {
        this.seed = value;
        return this;
    }

    /**
     * Sets whether a look that finds a regression ends the run (default true): the gate fails whatever the
     * undecided changes would say. False runs on until every change is decided, for a full picture.
     */
    public ABRun stopOnRegression(boolean value) {
        this.stopOnRegression = value;
        return this;
    }

    /** Sets whether each server is checked before the first block (default true); see {@link Goodput}. */
    public ABRun preflight(boolean value) {
        this.preflight = value;
        return this;
    }

    /** Sets the HTTP client transport by name ({@code docs/transports.md}); default as {@code Goodput.newRun}. */
    public ABRun transport(String value) {
        this.transport = Objects.requireNonNull(value, "transport");
        return this;
    }

    /** Sets where a line per look goes, for example {@code System.out::println}. */
    public ABRun progress(Consumer<String> value) {
        this.progress = Objects.requireNonNull(value, "progress");
        return this;
    }

    /**
     * Runs the pairs of blocks until decided or at the maximum.
     *
     * @throws InvalidSettingException if the workload or the load is missing
     * @throws dev.goodput.core.PreflightException if a server failed its preflight; no load was sent
     */
    public ABResult run() {
        return engine().run();
    }

    ABEngine engine() {
        if (workload == null) {
            throw InvalidSettingException.of("workload", null, "is needed: call workload(...)");
        }
        if (block == null) {
            throw InvalidSettingException.of("load", null, "is needed: call load(...) with one block's load");
        }
        List<ComparedStatistic> statistics = ComparedStatistic.forObjectives(objectives);
        Set<Double> percentiles = new LinkedHashSet<>(RunSpec.DEFAULT_PERCENTILES);
        percentiles.addAll(ComparedStatistic.percentilesNeeded(statistics));
        long blockLength = block.limits().requests().orElseThrow();
        // Build both arms' first block now, so that a setting the spec refuses is refused before any load.
        spec(baseline, workload, block, List.copyOf(percentiles));
        return new ABEngine(
                (arm, pair) -> spec(
                        arm == Arm.BASELINE ? baseline : candidate,
                        OffsetWorkload.of(workload, pair * blockLength),
                        seeded(block, pair),
                        List.copyOf(percentiles)),
                arm -> spec(arm == Arm.BASELINE ? baseline : candidate, workload, block, List.copyOf(percentiles)),
                LookPlan.doubling(firstLookPairs, maxPairs, confidence),
                new BlockOrder(seed),
                statistics,
                BaselineComparator.defaults().minimumChange(minimumChange).confidence(confidence),
                confidence,
                stopOnRegression,
                preflight,
                progress);
    }

    private RunSpec spec(ServerEndpoint server, WorkloadSpec blockWorkload, Load load, List<Double> percentiles) {
        Goodput.RunBuilder builder = Goodput.newRun(server)
                .workload(blockWorkload)
                .load(load)
                .objectives(objectives)
                .percentiles(
                        percentiles.stream().mapToDouble(Double::doubleValue).toArray())
                .confidence(confidence)
                .preflight(false)
                .failOnTooFewSamples(false);
        if (transport != null) {
            builder.transport(transport);
        }
        return builder.build();
    }

    /** The block's load for a pair: random arrivals get the pair's own seed, the same for both arms. */
    private static Load seeded(Load load, int pair) {
        long step = 1_000_003L * pair;
        if (load.arrivals() instanceof Arrivals.Poisson poisson) {
            return load.seed(poisson.seed() + step);
        }
        if (load.arrivals() instanceof Arrivals.Gamma gamma) {
            return load.seed(gamma.seed() + step);
        }
        return load;
    }
}
