package dev.goodput.core.workload;

import dev.goodput.core.InvalidSettingException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/** An empirical histogram of lengths, sampled by inverting its cumulative weights. */
final class EmpiricalLengths extends LengthDistribution {

    private final int[] lengths;
    private final double[] cumulative;
    private final Map<Integer, Double> weights;

    private EmpiricalLengths(int[] lengths, double[] cumulative, Map<Integer, Double> weights) {
        this.lengths = lengths;
        this.cumulative = cumulative;
        this.weights = weights;
    }

    static EmpiricalLengths of(TreeMap<Integer, Double> sorted) {
        int[] lengths = new int[sorted.size()];
        double[] cumulative = new double[sorted.size()];
        double total = 0;
        int i = 0;
        for (Map.Entry<Integer, Double> entry : sorted.entrySet()) {
            total += entry.getValue();
            lengths[i] = entry.getKey();
            cumulative[i++] = total;
        }
        if (!(total > 0)) {
            throw InvalidSettingException.of("weights", sorted, "must have a weight above 0");
        }
        return new EmpiricalLengths(lengths, cumulative, new LinkedHashMap<>(sorted));
    }

    @Override
    public int sample(SplittableRandom random) {
        double point = random.nextDouble() * cumulative[cumulative.length - 1];
        int found = Arrays.binarySearch(cumulative, point);
        int index = found >= 0 ? found + 1 : -found - 1;
        // A zero-weight length at the end could be hit only by point == total, which nextDouble() never gives.
        return lengths[Math.min(index, lengths.length - 1)];
    }

    @Override
    public int min() {
        return lengths[0];
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> description = new LinkedHashMap<>();
        description.put("type", "empirical");
        Map<String, Object> histogram = new LinkedHashMap<>();
        weights.forEach((length, weight) -> histogram.put(String.valueOf(length), weight));
        description.put("weights", histogram);
        return description;
    }

    @Override
    public String toString() {
        return describe().toString();
    }
}
