package dev.goodput.junit;

import dev.goodput.core.RunSpec;
import dev.goodput.core.SampleSize;
import dev.goodput.core.load.Arrivals;
import dev.goodput.core.load.Limits;
import dev.goodput.core.load.Load;
import dev.goodput.core.slo.SloSpec;
import java.time.Duration;
import java.util.List;

/**
 * Turns a {@link LoadProfile} annotation into a core {@link Load}. The annotation's shape is checked here (which
 * attributes choose the kind of load: rate or concurrency, burstiness only with gamma arrivals); every value is
 * checked by the core, whose refusals {@link AnnotationSettings} words as the attribute the user wrote. An
 * attribute left at 0 is not set.
 */
final class LoadProfiles {

    private LoadProfiles() {}

    static Load of(LoadProfile a, String where) {
        AnnotationSettings names = names(a, where);
        if (a.rate() != 0 && a.concurrency() != 0) {
            throw names.refusal("set either rate (open loop) or concurrency (closed loop), not both (rate = " + a.rate()
                    + ", concurrency = " + a.concurrency() + ")");
        }
        if (a.rate() == 0 && a.concurrency() == 0) {
            throw names.refusal("set rate (requests/s, open loop) or concurrency (users, closed loop)");
        }
        if (a.burstiness() != 0 && a.arrivals() != LoadProfile.Arrivals.GAMMA) {
            throw names.refusal("burstiness = " + a.burstiness() + " applies to arrivals = GAMMA, not " + a.arrivals());
        }
        return names.apply(() -> build(a, names));
    }

    /**
     * Returns {@code load} (from {@code a}, already scaled) with {@code requests = AUTO} replaced by what the
     * strictest percentile objective needs plus the warm-up and cool-down ({@link SampleSize#sizedFor}).
     */
    static Load sizedFor(
            LoadProfile a,
            Load load,
            List<SloSpec> objectives,
            dev.goodput.core.workload.WorkloadSpec workload,
            String where) {
        return names(a, where)
                .map("sizeForObjectives", "requests = AUTO", "AUTO")
                .apply(() -> SampleSize.sizedFor(load, objectives, RunSpec.DEFAULT_CONFIDENCE, workload));
    }

    private static AnnotationSettings names(LoadProfile a, String where) {
        return new AnnotationSettings("@LoadProfile", where)
                .map("rate", "rate", a.rate())
                .map("burstiness", "burstiness", a.burstiness())
                .map("concurrency", "concurrency", a.concurrency())
                .map("maxConcurrency", "maxConcurrency", a.maxConcurrency())
                .map("thinkTime", "thinkTimeMillis", a.thinkTimeMillis())
                .map("requests", "requests", a.requests())
                .map("minRequests", "untilDecidedFrom", a.untilDecidedFrom())
                .map("maxRequests", "requests", a.requests())
                .map("untilDecided", "untilDecidedFrom", a.untilDecidedFrom())
                .map("duration", "durationSeconds", a.durationSeconds())
                .map("warmupRequests", "warmupRequests", a.warmupRequests())
                .map("warmup", "warmupSeconds", a.warmupSeconds())
                .map("cooldownRequests", "cooldownRequests", a.cooldownRequests())
                .map("cooldown", "cooldownSeconds", a.cooldownSeconds())
                .map("drain", "drainSeconds", a.drainSeconds())
                .map("seed", "seed", a.seed())
                .map("headersTimeout", "headersTimeoutSeconds", a.headersTimeoutSeconds())
                .map("firstTokenTimeout", "firstTokenTimeoutSeconds", a.firstTokenTimeoutSeconds())
                .map("totalTimeout", "totalTimeoutSeconds", a.totalTimeoutSeconds())
                .map("retries", "retries", a.retries())
                .map("maxRetryWait", "maxRetryWaitSeconds", a.maxRetryWaitSeconds());
    }

    private static Load build(LoadProfile a, AnnotationSettings names) {
        Arrivals arrivals = a.concurrency() != 0
                ? Load.concurrency(a.concurrency())
                : switch (a.arrivals()) {
                    case CONSTANT -> Load.constantRate(a.rate());
                    case POISSON -> Load.poisson(a.rate());
                    case GAMMA -> Load.gamma(a.rate(), a.burstiness());
                };
        Limits limits = Limits.none();
        if (a.requests() == LoadProfile.AUTO) {
            // A stand-in that fits the warm-up and cool-down; sizedFor sets the real count once the objectives are
            // known.
            limits = limits.withRequests(1 + Math.max(0, a.warmupRequests()) + Math.max(0, a.cooldownRequests()));
        } else if (a.requests() != 0) {
            limits = limits.withRequests(a.requests());
        }
        if (a.durationSeconds() != 0) {
            limits = limits.withDuration(names.seconds("durationSeconds", a.durationSeconds()));
        }
        Load load = Load.of(arrivals, limits);
        // Limits first: the warm-up and cool-down are checked against them.
        load = load.warmupRequests(a.warmupRequests())
                .warmup(names.seconds("warmupSeconds", a.warmupSeconds()))
                .cooldownRequests(a.cooldownRequests())
                .cooldown(names.seconds("cooldownSeconds", a.cooldownSeconds()))
                .drain(names.seconds("drainSeconds", a.drainSeconds()));
        if (a.untilDecidedFrom() != 0) {
            if (a.requests() <= 0) {
                throw names.refusal("untilDecidedFrom = " + a.untilDecidedFrom() + " needs requests as the run's "
                        + "maximum, a count, not " + (a.requests() == LoadProfile.AUTO ? "AUTO" : "none"));
            }
            load = load.untilDecided(a.untilDecidedFrom(), a.requests());
        }
        if (a.thinkTimeMillis() != 0) {
            load = load.thinkTime(Duration.ofMillis(a.thinkTimeMillis()));
        }
        if (a.seed() != 0) {
            load = load.seed(a.seed());
        }
        if (a.maxConcurrency() != 0) {
            load = load.maxConcurrency(a.maxConcurrency());
        }
        if (a.headersTimeoutSeconds() != 0) {
            load = load.headersTimeout(names.seconds("headersTimeoutSeconds", a.headersTimeoutSeconds()));
        }
        if (a.firstTokenTimeoutSeconds() != 0) {
            load = load.firstTokenTimeout(names.seconds("firstTokenTimeoutSeconds", a.firstTokenTimeoutSeconds()));
        }
        if (a.totalTimeoutSeconds() != 0) {
            load = load.totalTimeout(names.seconds("totalTimeoutSeconds", a.totalTimeoutSeconds()));
        }
        if (a.retries() != 0) {
            load = load.retries(a.retries());
        }
        if (a.maxRetryWaitSeconds() != 0) {
            load = load.maxRetryWait(names.seconds("maxRetryWaitSeconds", a.maxRetryWaitSeconds()));
        }
        return load;
    }
}
