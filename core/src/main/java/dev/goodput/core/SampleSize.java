package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.internal.Units;
import dev.goodput.core.load.Arrivals;
import dev.goodput.core.load.Limits;
import dev.goodput.core.load.Load;
import dev.goodput.core.run.internal.LookPlan;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.internal.SloEvaluator;
import dev.goodput.core.workload.WorkloadMix;
import dev.goodput.core.workload.WorkloadSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;

/**
 * How many measured requests a percentile objective needs before it can be met, against how many a load plans.
 *
 * <p>A percentile's confidence interval is distribution-free, and its good end (the upper end for an upper
 * bound) only exists from a minimum number of samples on: 36 for p90, 368 for p99, 3,688 for p99.9 at 95 %
 * confidence. A run with fewer measured requests can never meet such an objective, only violate it or end
 * inconclusive, so {@link Goodput#run(RunSpec)} refuses it before any load is sent (unless told to warn,
 * {@link Goodput.RunBuilder#failOnTooFewSamples(boolean)}).
 *
 * <p>What a load plans is found from its limits, before the run:
 *
 * <ul>
 *   <li>{@link Basis#EXACT}: a request limit, with a warm-up and cool-down by count only: {@code requests -
 *       warmupRequests - cooldownRequests};
 *   <li>{@link Basis#AT_MOST}: the same count, which a duration limit or a time-based warm-up or cool-down of a
 *       closed loop (or a trace replay) can only lower;
 *   <li>{@link Basis#ESTIMATE}: an open loop at a rate with a duration limit or a time-based warm-up or
 *       cool-down: rate x time, said to be an estimate (random arrivals give a little more or less);
 *   <li>{@link Basis#UNKNOWN}: a closed loop with only a duration limit, whose count depends on how fast the
 *       server answers. It is not refused; {@link #note()} says so in the result and the console summary.
 * </ul>
 *
 * <p>The count is what independent samples would need. Requests under load are correlated (a request that queued
 * leaves the next one queueing), so their intervals rest on fewer effective samples than requests
 * ({@code docs/metrics.md}): a count below the need can never be met, but a count above it promises nothing. A run
 * that lasts until decided ({@link Load#untilDecided}) finds how many it takes; its maximum is what is checked here,
 * at the confidence of its looks.
 *
 * <p>Only percentiles of per-request metrics are checked: one measured request gives at most one sample of
 * them (none when it fails). A pooled metric (ITL, ICL) has a sample per gap, many per request; a mean needs 2
 * samples, a max 1.
 *
 * @param objective the percentile objective
 * @param confidence the confidence level of its interval
 * @param needed the fewest measured requests with which it can be met; empty when no number can (an upper bound
 *     on p100: bound the max instead)
 * @param planned the measured requests the load plans, or -1 when {@link Basis#UNKNOWN}
 * @param basis how {@code planned} was found
 * @param plan how it was counted, in the load's setting names, for example {@code "requests 110 - warmupRequests
 *     10"}
 *
 * <p>Longer than 300 lines because it is the one place that counts what a load plans, by every kind of limit,
 * warm-up and cool-down, and words what that count cannot promise.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record SampleSize(
        SloSpec objective, double confidence, OptionalLong needed, long planned, Basis basis, String plan) {

    /** How the planned number of measured requests was found. */
    public enum Basis {
        /** The request limit fixes it. */
        EXACT,
        /** The request limit caps it; a duration limit or a time-based warm-up or cool-down may lower it. */
        AT_MOST,
        /** An open loop's rate times its time. */
        ESTIMATE,
        /** A closed loop with only a duration limit: not known before the run. */
        UNKNOWN
    }

    public SampleSize {
        Objects.requireNonNull(objective, "objective");
        Objects.requireNonNull(needed, "needed");
        Objects.requireNonNull(basis, "basis");
        Objects.requireNonNull(plan, "plan");
    }

    /**
     * Returns the sample sizes of the objectives that need one (percentiles of per-request metrics), in order,
     * against what {@code load} plans.
     */
    public static List<SampleSize> of(Load load, List<SloSpec> objectives, double confidence) {
        return of(load, objectives, confidence, null);
    }

    /**
     * Returns the sample sizes of the objectives that need one, in order, against what {@code load} plans; an
     * objective on one class of a {@link WorkloadMix} is planned the class's share of the requests, an estimate.
     */
    public static List<SampleSize> of(Load load, List<SloSpec> objectives, double confidence, WorkloadSpec workload) {
        return of(load, objectives, confidence, workload, UnaryOperator.identity());
    }

    /**
     * Returns the sample sizes as {@link #of(Load, List, double, WorkloadSpec)} does, with each setting in a plan
     * named by {@code name}, so that a refusal can be worded in a front end's names.
     */
    static List<SampleSize> of(
            Load load, List<SloSpec> objectives, double confidence, WorkloadSpec workload, UnaryOperator<String> name) {
        Objects.requireNonNull(load, "load");
        // A run that looks repeatedly judges each look at a higher confidence; its last look is the maximum.
        double judged =
                LookPlan.of(load, confidence).map(LookPlan::lookConfidence).orElse(confidence);
        List<SampleSize> sizes = new ArrayList<>();
        Planned planned = null;
        for (SloSpec objective : objectives) {
            if (!isChecked(objective)) {
                continue;
            }
            if (planned == null) {
                planned = Planned.of(load, name);
            }
            double share = share(objective, workload);
            boolean ofClass = share < 1 && planned.basis() != Basis.UNKNOWN;
            sizes.add(new SampleSize(
                    objective,
                    judged,
                    SloEvaluator.samplesToMeet(objective, judged),
                    ofClass ? (long) Math.floor(planned.count() * share) : planned.count(),
                    ofClass ? Basis.ESTIMATE : planned.basis(),
                    ofClass
                            ? String.format(
                                    java.util.Locale.ROOT,
                                    "%s, of which class %s's share %.1f %%",
                                    planned.plan(),
                                    objective.trafficClass(),
                                    share * 100)
                            : planned.plan()));
        }
        return List.copyOf(sizes);
    }

    /**
     * Returns {@code load} with its request limit set to what the strictest of the objectives needs with independent
     * samples, plus its warm-up and cool-down: counted ones as they are, time-based ones of an open loop as rate x
     * time (rounded up). A duration limit stays, as a cap on time. This is the least count that can meet them;
     * correlated requests may need more, which only the run can tell: {@link Load#untilDecided} lets it.
     *
     * @throws InvalidSettingException when no objective needs a count (no percentile of a per-request metric that
     *     can be met), or a closed loop has a time-based warm-up or cool-down, which no count can stand for
     */
    public static Load sizedFor(Load load, List<SloSpec> objectives, double confidence) {
        return sizedFor(load, objectives, confidence, null);
    }

    /**
     * Returns {@code load} sized for the objectives as {@link #sizedFor(Load, List, double)} does; an objective on
     * one class of a {@link WorkloadMix} needs its count over the class's share.
     */
    public static Load sizedFor(Load load, List<SloSpec> objectives, double confidence, WorkloadSpec workload) {
        long needed = 0;
        for (SampleSize size : of(load, objectives, confidence, workload)) {
            needed = Math.max(needed, (long) Math.ceil(size.needed().orElse(0) / share(size.objective(), workload)));
        }
        if (needed == 0) {
            throw InvalidSettingException.conflict(
                    name -> name.apply("sizeForObjectives") + " needs a percentile objective on a per-request metric"
                            + " (TTFT, TPOT, E2EL, ...) to size the run for; the " + name.apply("objectives") + " are "
                            + objectives,
                    "sizeForObjectives",
                    "objectives");
        }
        long warmup = unmeasured(load, load.warmup(), "warmup");
        long cooldown = unmeasured(load, load.cooldown(), "cooldown");
        return load.requests(needed + warmup + cooldown);
    }

    private static double share(SloSpec objective, WorkloadSpec workload) {
        if (objective.trafficClass() != null && workload instanceof WorkloadMix mix) {
            return mix.trafficClass(objective.trafficClass()).map(mix::share).orElse(1.0);
        }
        return 1.0;
    }

    /**
     * Returns whether the objective cannot be met: no number of requests meets it, or the planned count is known
     * and too small.
     */
    public boolean isTooFew() {
        return needed.isEmpty() || (basis != Basis.UNKNOWN && planned < needed.getAsLong());
    }

    /**
     * Returns the refusal of a load that is too small, for example {@code "p99.9 TTFT needs at least 3,688
     * measured requests for a 95% upper bound; the load plans 100 (requests 110 - warmupRequests 10)"}.
     */
    public String describe() {
        String bound = SloEvaluator.boundToMeet(objective, confidence);
        if (needed.isEmpty()) {
            return objective.statisticName() + " has no " + bound
                    + " at any number of requests, so it can never be met: bound the max instead";
        }
        String need = objective.statisticName() + " needs at least " + count(needed.getAsLong())
                + " measured requests for a " + bound;
        return switch (basis) {
            case EXACT -> need + "; the load plans " + count(planned) + " (" + plan + ")";
            case AT_MOST -> need + "; the load plans at most " + count(planned) + " (" + plan + ")";
            case ESTIMATE -> need + "; the load plans about " + count(planned) + ", an estimate (" + plan + ")";
            case UNKNOWN -> need + "; " + plan + " measures a number of requests that is not known before the run";
        };
    }

    /**
     * Returns what the result and the console summary say about this size, or {@code null} when there is nothing
     * to say: the count is known and enough.
     */
    public String note() {
        if (needed.isEmpty()) {
            return describe();
        }
        if (isTooFew()) {
            return describe() + ", so its verdict cannot be MET";
        }
        return basis == Basis.UNKNOWN ? describe() : null;
    }

    private static boolean isChecked(SloSpec objective) {
        return objective.statistic() == SloSpec.Statistic.PERCENTILE
                && objective.metric().kind() == Metric.Kind.REQUEST;
    }

    private static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    /** The requests a warm-up or cool-down takes out of the sized count. */
    private static long unmeasured(Load load, Limits limits, String setting) {
        long byCount = limits.requests().orElse(0);
        Duration time = limits.duration().orElse(Duration.ZERO);
        if (time.isZero()) {
            return byCount;
        }
        if (!(load.arrivals() instanceof Arrivals.AtRate rate)) {
            throw InvalidSettingException.conflict(
                    name -> name.apply("sizeForObjectives") + " cannot count the requests of a time-based "
                            + name.apply(setting) + " (" + Units.formatValue(time) + ") of " + load.arrivals()
                            + ": set " + name.apply(setting + "Requests") + " instead",
                    "sizeForObjectives",
                    setting);
        }
        return Math.max(byCount, (long) Math.ceil(rate.rate() * seconds(time)));
    }

    private static double seconds(Duration duration) {
        return duration.toNanos() / 1e9;
    }

    /** What a load plans: a count, how it was found, and how it was counted. */
    private record Planned(long count, Basis basis, String plan) {

        static Planned of(Load load, UnaryOperator<String> name) {
            Limits limits = load.limits();
            Duration warmupTime = load.warmup().duration().orElse(Duration.ZERO);
            Duration cooldownTime = load.cooldown().duration().orElse(Duration.ZERO);
            boolean timed = limits.duration().isPresent() || !warmupTime.isZero() || !cooldownTime.isZero();
            long warmupCount = load.warmup().requests().orElse(0);
            long cooldownCount = load.cooldown().requests().orElse(0);
            if (timed && load.arrivals() instanceof Arrivals.AtRate atRate) {
                return estimate(load, atRate.rate(), warmupCount, cooldownCount, warmupTime, cooldownTime, name);
            }
            if (limits.requests().isEmpty()) {
                return new Planned(
                        -1,
                        Basis.UNKNOWN,
                        "a closed loop (" + load.arrivals() + ") with only a duration limit ("
                                + Units.formatValue(limits.duration().orElseThrow()) + ")");
            }
            long requests = limits.requests().getAsLong();
            StringBuilder plan = new StringBuilder(name.apply("requests") + " " + requests);
            if (warmupCount > 0) {
                plan.append(" - ")
                        .append(name.apply("warmupRequests"))
                        .append(' ')
                        .append(warmupCount);
            }
            if (cooldownCount > 0) {
                plan.append(" - ")
                        .append(name.apply("cooldownRequests"))
                        .append(' ')
                        .append(cooldownCount);
            }
            return new Planned(
                    requests - warmupCount - cooldownCount, timed ? Basis.AT_MOST : Basis.EXACT, plan.toString());
        }

        private static Planned estimate(
                Load load,
                double rate,
                long warmupCount,
                long cooldownCount,
                Duration warmupTime,
                Duration cooldownTime,
                UnaryOperator<String> name) {
            Limits limits = load.limits();
            double created = limits.duration().map(d -> rate * seconds(d)).orElse(Double.POSITIVE_INFINITY);
            String plan;
            if (limits.requests().isPresent() && limits.requests().getAsLong() <= created) {
                created = limits.requests().getAsLong();
                plan = name.apply("requests") + " " + limits.requests().getAsLong();
            } else {
                plan = name.apply("rate") + " " + Units.formatPercentile(rate) + " req/s x " + name.apply("duration")
                        + " " + Units.formatValue(limits.duration().orElseThrow());
            }
            double warmup = Math.max(warmupCount, rate * seconds(warmupTime));
            double cooldown = Math.max(cooldownCount, rate * seconds(cooldownTime));
            plan += part("warmup", warmupCount, warmupTime, name) + part("cooldown", cooldownCount, cooldownTime, name);
            long count = Math.max(0, (long) Math.floor(created - warmup - cooldown + 1e-9));
            return new Planned(count, Basis.ESTIMATE, plan);
        }

        /** Describes what a warm-up or cool-down takes out: {@code " - warmupRequests 10"}, {@code " - rate x warmup 2 s"}. */
        private static String part(String setting, long count, Duration time, UnaryOperator<String> name) {
            String byCount = name.apply(setting + "Requests") + " " + count;
            String byTime = name.apply("rate") + " x " + name.apply(setting) + " " + Units.formatValue(time);
            if (count > 0 && !time.isZero()) {
                return " - the larger of " + byCount + " and " + byTime;
            }
            if (count > 0) {
                return " - " + byCount;
            }
            return time.isZero() ? "" : " - " + byTime;
        }
    }
}
