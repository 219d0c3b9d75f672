package dev.goodput.core.servermetrics.internal;

import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.servermetrics.internal.ServerMetricNames.SeriesName;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Gathers the {@code _bucket}, {@code _sum} and {@code _count} samples of histogram series into one
 * {@link Buckets}: series are told apart by their labels other than {@code le} (one per engine, say) and
 * merged bucket by bucket. Series with different bounds merge over the union of the bounds, each series
 * counting at a bound it lacks what it counted at its nearest lower bound, so no observation is placed below
 * where it may lie.
 */
final class HistogramMerge {

    /** One series' samples as they are read. */
    private static final class Series {
        final NavigableMap<Double, Double> cumulativeByBound = new TreeMap<>();
        double sum;
        double count = Double.NaN;

        double countAt(double bound) {
            if (bound == Double.POSITIVE_INFINITY) {
                return total();
            }
            Map.Entry<Double, Double> floor = cumulativeByBound.floorEntry(bound);
            return floor == null ? 0 : floor.getValue();
        }

        double total() {
            Double infinite = cumulativeByBound.get(Double.POSITIVE_INFINITY);
            return Double.isNaN(count) ? (infinite == null ? 0 : infinite) : count;
        }
    }

    private HistogramMerge() {}

    /** Merges every series of the given names; empty when none had a bucket. */
    static Optional<Buckets> merge(Map<SeriesName, List<Sample>> byName) {
        List<Series> all = new ArrayList<>();
        for (Map.Entry<SeriesName, List<Sample>> entry : byName.entrySet()) {
            all.addAll(read(entry.getKey(), entry.getValue()));
        }
        all.removeIf(series -> series.cumulativeByBound.isEmpty());
        if (all.isEmpty()) {
            return Optional.empty();
        }
        TreeSet<Double> bounds = new TreeSet<>();
        all.forEach(series -> bounds.addAll(series.cumulativeByBound.keySet()));
        bounds.add(Double.POSITIVE_INFINITY);
        double[] upperBounds = bounds.stream().mapToDouble(Double::doubleValue).toArray();
        double[] counts = new double[upperBounds.length];
        double sum = 0;
        double count = 0;
        for (Series series : all) {
            for (int i = 0; i < upperBounds.length; i++) {
                counts[i] += series.countAt(upperBounds[i]);
            }
            sum += series.sum;
            count += series.total();
        }
        return Optional.of(new Buckets(upperBounds, counts, sum, count));
    }

    private static List<Series> read(SeriesName name, List<Sample> samples) {
        String family = name.name();
        Map<Map<String, String>, Series> byLabels = new LinkedHashMap<>();
        for (Sample sample : samples) {
            Map<String, String> labels = new HashMap<>(sample.labels());
            String le = labels.remove("le");
            Series series = byLabels.computeIfAbsent(labels, key -> new Series());
            String suffix = sample.name().substring(family.length());
            switch (suffix) {
                case "_bucket" -> {
                    if (le != null) {
                        try {
                            double bound =
                                    Exposition.number(le, "le", SecretRedaction.none()); // from a page read redacted
                            series.cumulativeByBound.put(
                                    bound == Double.POSITIVE_INFINITY ? bound : bound * name.scale(), sample.value());
                        } catch (IllegalArgumentException notANumber) {
                            // A bucket without a readable bound cannot be placed; the others still can.
                        }
                    }
                }
                case "_sum" -> series.sum = sample.value() * name.scale();
                default -> series.count = sample.value();
            }
        }
        return new ArrayList<>(byLabels.values());
    }
}
