package dev.goodput.junit;

import static dev.goodput.junit.GateDefinition.seconds;

import dev.goodput.core.Load;
import java.time.Duration;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/** Turns a {@link LoadProfile} annotation into a core load profile, naming any attribute it cannot use. */
final class LoadProfiles {

    private LoadProfiles() {}

    static Load of(LoadProfile a, String where) {
        String name = "@LoadProfile on " + where;
        requireNotNegative(name, "rate", a.rate());
        requireNotNegative(name, "burstiness", a.burstiness());
        requireNotNegative(name, "concurrency", a.concurrency());
        requireNotNegative(name, "maxConcurrency", a.maxConcurrency());
        requireNotNegative(name, "thinkTimeMillis", a.thinkTimeMillis());
        requireNotNegative(name, "requests", a.requests());
        requireNotNegative(name, "durationSeconds", a.durationSeconds());
        requireNotNegative(name, "warmupRequests", a.warmupRequests());
        requireNotNegative(name, "warmupSeconds", a.warmupSeconds());
        requireNotNegative(name, "cooldownRequests", a.cooldownRequests());
        requireNotNegative(name, "cooldownSeconds", a.cooldownSeconds());
        requireNotNegative(name, "drainSeconds", a.drainSeconds());
        requireNotNegative(name, "headersTimeoutSeconds", a.headersTimeoutSeconds());
        requireNotNegative(name, "firstTokenTimeoutSeconds", a.firstTokenTimeoutSeconds());
        requireNotNegative(name, "totalTimeoutSeconds", a.totalTimeoutSeconds());
        requireNotNegative(name, "maxRetryWaitSeconds", a.maxRetryWaitSeconds());
        if (a.retries() < 0 || a.retries() > 10) {
            throw new ExtensionConfigurationException(
                    name + ": retries = " + a.retries() + " must be between 0 and 10");
        }
        if (a.rate() > 0 && a.concurrency() > 0) {
            throw new ExtensionConfigurationException(name + ": set either rate (open loop) or concurrency (closed"
                    + " loop), not both (rate = " + a.rate() + ", concurrency = " + a.concurrency() + ")");
        }
        if (a.rate() == 0 && a.concurrency() == 0) {
            throw new ExtensionConfigurationException(
                    name + ": set rate (requests/s, open loop) or concurrency (users, closed loop)");
        }
        if (a.burstiness() > 0 && a.arrivals() != LoadProfile.Arrivals.GAMMA) {
            throw new ExtensionConfigurationException(
                    name + ": burstiness = " + a.burstiness() + " applies to arrivals = GAMMA, not " + a.arrivals());
        }
        if (a.arrivals() == LoadProfile.Arrivals.GAMMA && a.burstiness() == 0) {
            throw new ExtensionConfigurationException(
                    name + ": arrivals = GAMMA needs burstiness (the gamma shape, above 0)");
        }
        return GateDefinition.validate(() -> build(a), "@LoadProfile", where);
    }

    private static Load build(LoadProfile a) {
        Load profile;
        if (a.concurrency() > 0) {
            if (a.maxConcurrency() > 0) {
                throw new IllegalArgumentException("maxConcurrency = " + a.maxConcurrency()
                        + " applies to an open loop (rate); a closed loop's concurrency is its user count");
            }
            profile = Load.concurrency(a.concurrency()).thinkTime(Duration.ofMillis(a.thinkTimeMillis()));
        } else {
            if (a.thinkTimeMillis() > 0) {
                throw new IllegalArgumentException("thinkTimeMillis = " + a.thinkTimeMillis()
                        + " applies to a closed loop (concurrency), not to an open loop (rate)");
            }
            profile = switch (a.arrivals()) {
                case CONSTANT -> Load.constantRate(a.rate());
                case POISSON -> Load.poisson(a.rate());
                case GAMMA -> Load.gamma(a.rate(), a.burstiness());
            };
            if (a.maxConcurrency() > 0) {
                profile = profile.maxConcurrency(a.maxConcurrency());
            }
        }
        profile = profile.requests(a.requests())
                .warmupRequests(a.warmupRequests())
                .warmup(seconds(a.warmupSeconds()))
                .cooldownRequests(a.cooldownRequests())
                .cooldown(seconds(a.cooldownSeconds()))
                .drain(seconds(a.drainSeconds()))
                .seed(a.seed());
        if (a.durationSeconds() > 0) {
            profile = profile.duration(seconds(a.durationSeconds()));
        }
        if (a.headersTimeoutSeconds() > 0) {
            profile = profile.headersTimeout(seconds(a.headersTimeoutSeconds()));
        }
        if (a.firstTokenTimeoutSeconds() > 0) {
            profile = profile.firstTokenTimeout(seconds(a.firstTokenTimeoutSeconds()));
        }
        if (a.totalTimeoutSeconds() > 0) {
            profile = profile.totalTimeout(seconds(a.totalTimeoutSeconds()));
        }
        if (a.retries() > 0) {
            profile = profile.retries(a.retries());
        }
        if (a.maxRetryWaitSeconds() > 0) {
            profile = profile.maxRetryWait(seconds(a.maxRetryWaitSeconds()));
        }
        return profile;
    }

    private static void requireNotNegative(String name, String attribute, long value) {
        if (value < 0) {
            throw new ExtensionConfigurationException(name + ": " + attribute + " = " + value + " must be at least 0");
        }
    }

    private static void requireNotNegative(String name, String attribute, double value) {
        if (value < 0 || Double.isNaN(value) || Double.isInfinite(value)) {
            throw new ExtensionConfigurationException(
                    name + ": " + attribute + " = " + value + " must be a finite value of at least 0");
        }
    }
}
