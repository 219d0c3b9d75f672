package dev.goodput.core.servermetrics.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything kept of a run's scrapes, in memory bounded whatever the run's length: per signal running figures
 * (count, mean, peak, a counter's increase, power integrated into energy) over every scrape, a time series
 * thinned to at most {@code maxPoints} points, each histogram's first and last reading, and the first {@link
 * #MAX_UNMAPPED} unknown series by first, last, lowest and highest value.
 *
 * <p>Readings arrive one tick at a time, one per endpoint that answered; an endpoint that failed in a tick keeps
 * its previous reading for that tick, so a summed signal does not dip because one exporter was slow.
 */
public final class ScrapeLog {

    /** Unknown series kept at most; more are counted, not kept. */
    public static final int MAX_UNMAPPED = 2_000;

    private static final int MAX_FAILURE_REASONS = 10;

    private final List<String> endpoints;
    private final int maxPoints;
    private final Map<String, ScrapeReading> latestByEndpoint = new LinkedHashMap<>();
    private final Map<ServerSignal, Track> tracks = new EnumMap<>(ServerSignal.class);
    private final Map<ServerSignal, Buckets> firstHistograms = new EnumMap<>(ServerSignal.class);
    private final Map<ServerSignal, Buckets> lastHistograms = new EnumMap<>(ServerSignal.class);
    private final Map<String, Raw> unmapped = new LinkedHashMap<>();
    private final Set<String> failureReasons = new LinkedHashSet<>();
    private final List<String> notes = new ArrayList<>();
    private int scrapes;
    private int failedScrapes;
    private long droppedUnmapped;

    public ScrapeLog(List<String> endpoints, int maxPoints) {
        if (maxPoints < 2) {
            throw new IllegalArgumentException("maxPoints must be at least 2, was " + maxPoints);
        }
        this.endpoints = List.copyOf(endpoints);
        this.maxPoints = maxPoints;
    }

    /** Records one tick: the readings of the endpoints that answered, taken at {@code atNanos}. */
    public synchronized void record(long atNanos, Map<String, ScrapeReading> readings) {
        if (readings.isEmpty()) {
            return;
        }
        scrapes += readings.size();
        latestByEndpoint.putAll(readings);
        Map<ServerSignal, List<Double>> values = new EnumMap<>(ServerSignal.class);
        for (ScrapeReading reading : latestByEndpoint.values()) {
            reading.values()
                    .forEach((signal, value) -> values.computeIfAbsent(signal, s -> new ArrayList<>())
                            .add(value));
            reading.histograms().forEach((signal, buckets) -> {
                firstHistograms.putIfAbsent(signal, buckets);
                lastHistograms.put(signal, buckets);
            });
        }
        values.forEach((signal, list) ->
                tracks.computeIfAbsent(signal, s -> new Track(maxPoints)).add(atNanos, combine(signal, list)));
        for (ScrapeReading reading : readings.values()) {
            for (Sample sample : reading.unmapped()) {
                String key = sample.name() + sample.labels();
                Raw raw = unmapped.get(key);
                if (raw == null) {
                    if (unmapped.size() >= MAX_UNMAPPED) {
                        droppedUnmapped++;
                        continue;
                    }
                    raw = new Raw(sample);
                    unmapped.put(key, raw);
                }
                raw.add(sample.value());
            }
        }
    }

    /** Records a failed scrape of one endpoint. */
    public synchronized void failed(String endpoint, String reason) {
        failedScrapes++;
        if (failureReasons.size() < MAX_FAILURE_REASONS) {
            failureReasons.add(endpoint + ": " + reason);
        }
    }

    /** Records something the reader should know that is not a failure (the server has no {@code /metrics}). */
    public synchronized void note(String note) {
        notes.add(note);
    }

    private static double combine(ServerSignal signal, List<Double> values) {
        double sum = 0;
        for (double value : values) {
            sum += value;
        }
        return signal.acrossSeries() == ServerSignal.Aggregation.MEAN ? sum / values.size() : sum;
    }

    public synchronized List<String> endpoints() {
        return endpoints;
    }

    public synchronized int scrapes() {
        return scrapes;
    }

    public synchronized int failedScrapes() {
        return failedScrapes;
    }

    public synchronized List<String> failureReasons() {
        return List.copyOf(failureReasons);
    }

    public synchronized List<String> notes() {
        return List.copyOf(notes);
    }

    /** Returns the running figures of a signal, or null when no scrape reported it. */
    public synchronized Track track(ServerSignal signal) {
        return tracks.get(signal);
    }

    /** Returns a histogram's increase over the run (last reading minus first), or null when none reported it. */
    public synchronized Buckets histogramOverRun(ServerSignal signal) {
        Buckets last = lastHistograms.get(signal);
        return last == null ? null : last.minus(firstHistograms.get(signal));
    }

    public synchronized List<Raw> unmapped() {
        return List.copyOf(unmapped.values());
    }

    public synchronized long droppedUnmapped() {
        return droppedUnmapped;
    }

    /**
     * One signal over the run. Its figures cover every scrape; its points are thinned (every other one dropped)
     * each time they reach the bound, so a long run keeps its shape at a coarser step.
     */
    public static final class Track {
        private final int maxPoints;
        private long[] times = new long[16];
        private double[] values = new double[16];
        private int size;
        private int stride = 1;
        private long seen;
        private long count;
        private double sum;
        private double max = Double.NEGATIVE_INFINITY;
        private double first = Double.NaN;
        private double last = Double.NaN;
        private long lastNanos;
        private double increase;
        private double integral;

        Track(int maxPoints) {
            this.maxPoints = maxPoints;
        }

        void add(long atNanos, double value) {
            if (Double.isNaN(value)) {
                return;
            }
            if (count > 0) {
                increase += value >= last ? value - last : value; // a counter that fell was reset by a restart
                integral += (last + value) / 2 * ((atNanos - lastNanos) / 1e9);
            } else {
                first = value;
            }
            if (seen++ % stride == 0) {
                if (size == maxPoints) {
                    thin();
                }
                if (size == times.length) {
                    times = Arrays.copyOf(times, Math.min(maxPoints, size * 2));
                    values = Arrays.copyOf(values, times.length);
                }
                times[size] = atNanos;
                values[size] = value;
                size++;
            }
            count++;
            sum += value;
            max = Math.max(max, value);
            last = value;
            lastNanos = atNanos;
        }

        private void thin() {
            int kept = 0;
            for (int i = 0; i < size; i += 2) {
                times[kept] = times[i];
                values[kept] = values[i];
                kept++;
            }
            size = kept;
            stride *= 2;
        }

        /** The scrapes that reported this signal. */
        public long count() {
            return count;
        }

        /** The mean over the scrapes. */
        public double mean() {
            return count == 0 ? Double.NaN : sum / count;
        }

        public double max() {
            return count == 0 ? Double.NaN : max;
        }

        /** A counter's increase from the first scrape to the last, resets accounted for. */
        public double increase() {
            return count == 0 ? Double.NaN : increase;
        }

        /** The value integrated over time by the trapezoid rule, in the value's unit times seconds. */
        public double integral() {
            return count < 2 ? Double.NaN : integral;
        }

        public double first() {
            return first;
        }

        public double last() {
            return last;
        }

        /** The kept points' times. */
        public long[] times() {
            return Arrays.copyOf(times, size);
        }

        /** The kept points' values. */
        public double[] values() {
            return Arrays.copyOf(values, size);
        }
    }

    /** An unknown series by first, last, lowest and highest value. */
    public static final class Raw {
        private final Sample sample;
        private final double first;
        private double last;
        private double min = Double.POSITIVE_INFINITY;
        private double max = Double.NEGATIVE_INFINITY;

        Raw(Sample sample) {
            this.sample = sample;
            this.first = sample.value();
        }

        void add(double value) {
            last = value;
            min = Math.min(min, value);
            max = Math.max(max, value);
        }

        public String name() {
            return sample.name();
        }

        public Map<String, String> labels() {
            return sample.labels();
        }

        public double first() {
            return first;
        }

        public double last() {
            return last;
        }

        public double min() {
            return min;
        }

        public double max() {
            return max;
        }
    }
}
