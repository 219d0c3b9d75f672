package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * Several classes of traffic in one run, for example 70 % {@code chat}, 25 % {@code rag} and 5 % {@code batch}.
 * Each request belongs to one {@link TrafficClassSpec}, chosen from its position and the seed, so the same seed
 * gives the same classes in the same order whatever the load; the class's workload then builds the request for
 * the same position. Every metric, percentile, goodput figure and objective is available per class ({@link
 * dev.goodput.core.result.RunResult#classes()}) and overall, and an objective can bound one class ({@link
 * dev.goodput.core.slo.SloSpec.Builder#inClass(String)}).
 *
 * <p>Arrivals come from the load profile for the whole mix. {@link Selection#RANDOM} draws each request's class
 * on its own, so with Poisson arrivals at rate λ each class arrives as its own Poisson process at its share of
 * λ (a thinned Poisson process is Poisson), and the classes are independent of each other. {@link
 * Selection#INTERLEAVED} deals the classes in a fixed smooth order instead (chat, rag, chat, chat, rag, ...), so
 * any stretch of requests holds the classes in their shares to within one request: use it when a short run must
 * hold every class in proportion.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class WorkloadMix implements WorkloadSpec {

    /** How each request's class is chosen. */
    @API(status = EXPERIMENTAL, since = "0.2")
    public enum Selection {
        /** Drawn for each request from the seed and its position, with probability proportional to the weight. */
        RANDOM,
        /** Dealt in a fixed smooth weighted round robin, each class at its share to within one request. */
        INTERLEAVED
    }

    /** Longest cycle {@link Selection#INTERLEAVED} deals; weights are rounded to this resolution. */
    private static final int CYCLE = 1_000;

    private final List<TrafficClassSpec> classes;
    private final Selection selection;
    private final long seed;
    private final double[] cumulativeShares;
    private final int[] dealt;

    private WorkloadMix(List<TrafficClassSpec> classes, Selection selection, long seed) {
        this.classes = List.copyOf(classes);
        this.selection = selection;
        this.seed = seed;
        double total = classes.stream().mapToDouble(TrafficClassSpec::weight).sum();
        this.cumulativeShares = new double[classes.size()];
        double running = 0;
        for (int k = 0; k < classes.size(); k++) {
            running += classes.get(k).weight() / total;
            cumulativeShares[k] = running;
        }
        cumulativeShares[classes.size() - 1] = 1.0;
        this.dealt = selection == Selection.INTERLEAVED ? dealingOrder(classes, total) : null;
    }

    /** Starts a mix: classes in the order added, {@link Selection#RANDOM}, seed 0. */
    public static Builder builder() {
        return new Builder();
    }

    /** Returns the classes, in the order they were added. */
    public List<TrafficClassSpec> classes() {
        return classes;
    }

    /** Returns how each request's class is chosen. */
    public Selection selection() {
        return selection;
    }

    /** Returns the class with the given name, if the mix has one. */
    public Optional<TrafficClassSpec> trafficClass(String name) {
        return classes.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** Returns the share of requests a class gets: its weight over the sum of all weights. */
    public double share(TrafficClassSpec trafficClass) {
        double total = classes.stream().mapToDouble(TrafficClassSpec::weight).sum();
        return trafficClass.weight() / total;
    }

    /** Returns the class of the request at position {@code index} of the schedule. */
    public TrafficClassSpec classOf(long index) {
        if (index < 0) {
            throw new IllegalArgumentException("index must be at least 0, was " + index);
        }
        if (selection == Selection.INTERLEAVED) {
            return classes.get(dealt[(int) (index % dealt.length)]);
        }
        double draw = new SplittableRandom(seed ^ (index * 0x9E3779B97F4A7C15L)).nextDouble();
        for (int k = 0; k < cumulativeShares.length; k++) {
            if (draw < cumulativeShares[k]) {
                return classes.get(k);
            }
        }
        return classes.get(classes.size() - 1);
    }

    @Override
    public RequestSpec request(long index) {
        TrafficClassSpec chosen = classOf(index);
        RequestSpec spec = chosen.workload().request(index);
        if (chosen.priority() != null) {
            Map<String, Object> body = new LinkedHashMap<>(spec.extraBody());
            body.put("priority", chosen.priority());
            spec = spec.withExtraBody(body);
        }
        if (!chosen.headers().isEmpty()) {
            Map<String, String> headers = new LinkedHashMap<>(spec.headers());
            headers.putAll(chosen.headers());
            spec = spec.withHeaders(headers);
        }
        return spec;
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("type", "mix");
        description.put("selection", selection.name());
        description.put("seed", seed);
        List<Map<String, Object>> described = new ArrayList<>();
        for (TrafficClassSpec trafficClass : classes) {
            described.add(trafficClass.describe(share(trafficClass)));
        }
        description.put("classes", described);
        return description;
    }

    /**
     * Deals one cycle of a smooth weighted round robin (nginx's: each turn every class gains its weight and the
     * richest is dealt and pays the total), which spreads each class evenly over the cycle.
     */
    private static int[] dealingOrder(List<TrafficClassSpec> classes, double total) {
        int[] weights = new int[classes.size()];
        int sum = 0;
        for (int k = 0; k < weights.length; k++) {
            weights[k] = Math.max(1, (int) Math.round(classes.get(k).weight() / total * CYCLE));
            sum += weights[k];
        }
        int divisor = weights[0];
        for (int weight : weights) {
            divisor = gcd(divisor, weight);
        }
        sum /= divisor;
        int[] current = new int[weights.length];
        int[] order = new int[sum];
        for (int turn = 0; turn < sum; turn++) {
            int richest = 0;
            for (int k = 0; k < weights.length; k++) {
                current[k] += weights[k] / divisor;
                if (current[k] > current[richest]) {
                    richest = k;
                }
            }
            current[richest] -= sum;
            order[turn] = richest;
        }
        return order;
    }

    private static int gcd(int a, int b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** Builds a {@link WorkloadMix}. */
    @API(status = EXPERIMENTAL, since = "0.2")
    public static final class Builder {
        private final List<TrafficClassSpec> classes = new ArrayList<>();
        private Selection selection = Selection.RANDOM;
        private long seed;

        private Builder() {}

        /** Adds a class. */
        public Builder add(TrafficClassSpec trafficClass) {
            if (trafficClass == null) {
                throw InvalidSettingException.of("workload class", null, "must be given");
            }
            if (classes.stream().anyMatch(c -> c.name().equals(trafficClass.name()))) {
                throw InvalidSettingException.of(
                        "workload class name", trafficClass.name(), "is already a class of this mix");
            }
            classes.add(trafficClass);
            return this;
        }

        /** Adds a class with the given name, weight and workload. */
        public Builder add(String name, double weight, WorkloadSpec workload) {
            return add(TrafficClassSpec.of(name, weight, workload));
        }

        /** Chooses how each request's class is chosen; {@link Selection#RANDOM} by default. */
        public Builder selection(Selection value) {
            if (value == null) {
                throw InvalidSettingException.of("selection", null, "must be RANDOM or INTERLEAVED");
            }
            this.selection = value;
            return this;
        }

        /** Seeds the random choice of classes. */
        public Builder seed(long value) {
            this.seed = value;
            return this;
        }

        /** Returns the mix; it needs at least one class. */
        public WorkloadMix build() {
            if (classes.isEmpty()) {
                throw InvalidSettingException.of("classes", "none", "a workload mix needs at least one class");
            }
            return new WorkloadMix(classes, selection, seed);
        }
    }
}
