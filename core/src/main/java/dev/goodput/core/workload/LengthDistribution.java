package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * A distribution of token counts (prompt or output lengths), sampled with a caller's seeded random source so the
 * same seed gives the same lengths. Every sample is an integer of at least 1. {@link #describe()} is recorded
 * in the result.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public abstract class LengthDistribution {

    LengthDistribution() {}

    /** Draws one length. */
    public abstract int sample(SplittableRandom random);

    /** Describes this distribution for the run's recorded configuration. */
    public abstract Map<String, Object> describe();

    /** Returns the smallest length this distribution can give. */
    public abstract int min();

    /** Always {@code tokens}. */
    public static LengthDistribution fixed(int tokens) {
        requireAtLeastOne("tokens", tokens);
        return new Bounded("fixed", Map.of("tokens", tokens), tokens, tokens, random -> tokens);
    }

    /**
     * Uniform integers in {@code [mean (1 - rangeRatio), mean (1 + rangeRatio)]}, as vLLM's
     * {@code --random-range-ratio}; a ratio of 0 is fixed.
     */
    public static LengthDistribution uniform(int mean, double rangeRatio) {
        requireAtLeastOne("mean", mean);
        if (!(rangeRatio >= 0 && rangeRatio < 1)) {
            throw InvalidSettingException.of("rangeRatio", rangeRatio, "must be at least 0 and below 1");
        }
        int low = Math.max(1, (int) Math.floor(mean * (1 - rangeRatio)));
        int high = (int) Math.ceil(mean * (1 + rangeRatio));
        Map<String, Object> params = ordered("mean", mean, "range_ratio", rangeRatio, "min", low, "max", high);
        return new Bounded("uniform", params, low, high, random -> low + random.nextInt(high - low + 1));
    }

    /** Normal with the given mean and standard deviation, rounded and redrawn until within {@code [min, max]}. */
    public static LengthDistribution normal(double mean, double stddev, int min, int max) {
        requireBounds(min, max);
        requireSpread("stddev", stddev);
        Map<String, Object> params = ordered("mean", mean, "stddev", stddev, "min", min, "max", max);
        return new Bounded("normal", params, min, max, random -> mean + stddev * Gaussian.next(random));
    }

    /**
     * Log-normal with the given median and shape {@code sigma} (the standard deviation of the logarithm), rounded
     * and redrawn until within {@code [min, max]}. Real prompt and reply lengths are close to log-normal.
     */
    public static LengthDistribution logNormal(double median, double sigma, int min, int max) {
        requireBounds(min, max);
        requireSpread("sigma", sigma);
        if (!(median > 0)) {
            throw InvalidSettingException.of("median", median, "must be above 0");
        }
        Map<String, Object> params = ordered("median", median, "sigma", sigma, "min", min, "max", max);
        double mu = Math.log(median);
        return new Bounded("log_normal", params, min, max, random -> Math.exp(mu + sigma * Gaussian.next(random)));
    }

    /**
     * An empirical histogram: each length is drawn with probability proportional to its weight.
     *
     * @param weights length to weight; lengths at least 1, weights at least 0 and not all 0
     */
    public static LengthDistribution empirical(Map<Integer, ? extends Number> weights) {
        TreeMap<Integer, Double> sorted = new TreeMap<>();
        weights.forEach((length, weight) -> {
            requireAtLeastOne("empirical length", length);
            if (!(weight.doubleValue() >= 0) || Double.isInfinite(weight.doubleValue())) {
                throw InvalidSettingException.of(
                        "empirical weight of length " + length, weight, "must be finite and at least 0");
            }
            sorted.merge(length, weight.doubleValue(), Double::sum);
        });
        return EmpiricalLengths.of(sorted);
    }

    static void requireAtLeastOne(String name, int value) {
        if (value < 1) {
            throw InvalidSettingException.of(name, value, "must be at least 1");
        }
    }

    private static void requireBounds(int min, int max) {
        requireAtLeastOne("min", min);
        if (max < min) {
            throw InvalidSettingException.of("max", max, "must be at least min (" + min + ")");
        }
    }

    private static void requireSpread(String name, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw InvalidSettingException.of(name, value, "must be finite and at least 0");
        }
    }

    static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** A continuous draw, rounded and redrawn until within bounds (clamped after 1,000 tries). */
    private static final class Bounded extends LengthDistribution {
        interface Draw {
            double next(SplittableRandom random);
        }

        private final String type;
        private final Map<String, Object> params;
        private final int min;
        private final int max;
        private final Draw draw;

        Bounded(String type, Map<String, Object> params, int min, int max, Draw draw) {
            this.type = type;
            this.params = params;
            this.min = min;
            this.max = max;
            this.draw = draw;
        }

        @Override
        public int sample(SplittableRandom random) {
            long value = 0;
            for (int attempt = 0; attempt < 1000; attempt++) {
                value = Math.round(draw.next(random));
                if (value >= min && value <= max) {
                    return (int) value;
                }
            }
            return (int) Math.max(min, Math.min(max, value));
        }

        @Override
        public int min() {
            return min;
        }

        @Override
        public Map<String, Object> describe() {
            Map<String, Object> description = new LinkedHashMap<>();
            description.put("type", type);
            description.putAll(params);
            return description;
        }

        @Override
        public String toString() {
            return describe().toString();
        }
    }
}
