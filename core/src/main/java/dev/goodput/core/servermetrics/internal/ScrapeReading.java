package dev.goodput.core.servermetrics.internal;

import dev.goodput.core.servermetrics.internal.ServerMetricNames.SeriesName;
import dev.goodput.core.servermetrics.internal.ServerSignal.Aggregation;
import dev.goodput.core.servermetrics.internal.ServerSignal.Kind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One scrape reduced to what it means: one value per gauge or counter signal, merged over its series (engines,
 * GPUs) as the signal's {@link Aggregation} says; merged cumulative buckets per histogram signal; and every
 * sample Goodput has no meaning for, kept as it came. Of the names a signal has, a current one is preferred over
 * a fallback (deprecated) one when both are in the scrape, so a vLLM that exports both names is not counted
 * twice. NaN values (a gauge the server has not set yet) are left out of the aggregate; a signal with no value
 * left is absent.
 *
 * @param values one value per gauge and counter signal, in the signal's unit
 * @param histograms the merged buckets per histogram signal, bounds and sums in seconds
 * @param unmapped the samples no signal claims (samples of names that lost to a preferred one are not here)
 */
public record ScrapeReading(
        Map<ServerSignal, Double> values, Map<ServerSignal, Buckets> histograms, List<Sample> unmapped) {

    private static final List<String> HISTOGRAM_SUFFIXES = List.of("_bucket", "_sum", "_count");

    /** Copies the maps and list into unmodifiable ones. */
    public ScrapeReading {
        values = copy(values);
        histograms = copy(histograms);
        unmapped = List.copyOf(unmapped);
    }

    /** Reduces one scrape's samples, as {@link Exposition#parse} returns them. */
    public static ScrapeReading of(List<Sample> samples) {
        // Signal -> each of its names present -> that name's samples.
        Map<ServerSignal, Map<SeriesName, List<Sample>>> bySignal = new EnumMap<>(ServerSignal.class);
        List<Sample> unmapped = new ArrayList<>();
        for (Sample sample : samples) {
            Optional<SeriesName> name = meaning(sample.name());
            if (name.isPresent()) {
                bySignal.computeIfAbsent(name.get().signal(), signal -> new LinkedHashMap<>())
                        .computeIfAbsent(name.get(), key -> new ArrayList<>())
                        .add(sample);
            } else {
                unmapped.add(sample);
            }
        }
        Map<ServerSignal, Double> values = new EnumMap<>(ServerSignal.class);
        Map<ServerSignal, Buckets> histograms = new EnumMap<>(ServerSignal.class);
        bySignal.forEach((signal, byName) -> {
            boolean anyCurrent = byName.keySet().stream().anyMatch(name -> !name.fallback());
            byName.keySet().removeIf(name -> anyCurrent && name.fallback());
            if (signal.kind() == Kind.HISTOGRAM) {
                HistogramMerge.merge(byName).ifPresent(merged -> histograms.put(signal, merged));
            } else {
                aggregate(signal, byName).ifPresent(value -> values.put(signal, value));
            }
        });
        return new ScrapeReading(values, histograms, unmapped);
    }

    /** Returns the value of a gauge or counter signal, if this scrape had it. */
    public Optional<Double> value(ServerSignal signal) {
        return Optional.ofNullable(values.get(signal));
    }

    /** Returns the merged buckets of a histogram signal, if this scrape had it. */
    public Optional<Buckets> histogram(ServerSignal signal) {
        return Optional.ofNullable(histograms.get(signal));
    }

    /** The mapped name a sample belongs to: itself for gauges and counters, its family for histograms. */
    private static Optional<SeriesName> meaning(String sampleName) {
        Optional<SeriesName> exact = ServerMetricNames.of(sampleName);
        if (exact.isPresent() && exact.get().signal().kind() != Kind.HISTOGRAM) {
            return exact;
        }
        for (String suffix : HISTOGRAM_SUFFIXES) {
            if (sampleName.endsWith(suffix)) {
                Optional<SeriesName> family =
                        ServerMetricNames.of(sampleName.substring(0, sampleName.length() - suffix.length()));
                if (family.isPresent() && family.get().signal().kind() == Kind.HISTOGRAM) {
                    return family;
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Double> aggregate(ServerSignal signal, Map<SeriesName, List<Sample>> byName) {
        double total = 0;
        int series = 0;
        for (Map.Entry<SeriesName, List<Sample>> entry : byName.entrySet()) {
            for (Sample sample : entry.getValue()) {
                if (!Double.isNaN(sample.value())) {
                    total += sample.value() * entry.getKey().scale();
                    series++;
                }
            }
        }
        if (series == 0) {
            return Optional.empty();
        }
        return Optional.of(signal.acrossSeries() == Aggregation.MEAN ? total / series : total);
    }

    private static <V> Map<ServerSignal, V> copy(Map<ServerSignal, V> map) {
        Map<ServerSignal, V> copy = new EnumMap<>(ServerSignal.class);
        copy.putAll(map);
        return Collections.unmodifiableMap(copy);
    }
}
