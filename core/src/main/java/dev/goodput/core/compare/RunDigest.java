package dev.goodput.core.compare;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.internal.JsonProblems;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.result.internal.ResultCalculator;
import dev.goodput.core.slo.Metric;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What a comparison needs from one gate's trials, and the format of a stored baseline: the run's identity (what
 * was run against what, which must match for a comparison to be valid), and per trial the per-request samples in
 * schedule order (so that intervals can account for correlation), the run-level rates with their values in time
 * slices, and whether the load was delivered as configured. Written as JSON ({@link #write(Path)}).
 *
 * <p>Arrays are compared by reference by the generated {@code equals}; compare digests through their JSON.
 *
 * @param format the file format version, {@value #FORMAT}
 * @param test the gate's name, for example {@code "ChatGateTest.chat_meets_slo"}
 * @param recordedAt when the last trial started, ISO-8601
 * @param goodputVersion the Goodput version that measured it
 * @param identity what must be equal for two digests to be compared, by name ({@code workload}, {@code load},
 *     {@code server}, {@code goodput_version})
 * @param trials one entry per trial, in the order they ran
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record RunDigest(
        int format,
        String test,
        @JsonProperty("recorded_at") String recordedAt,
        @JsonProperty("goodput_version") String goodputVersion,
        Map<String, String> identity,
        List<Trial> trials) {

    /** The current file format version. */
    public static final int FORMAT = 1;

    /** The per-request metrics a digest keeps samples of. */
    public static final List<Metric> SAMPLED =
            List.of(Metric.TTFT, Metric.TTFT_FROM_SEND, Metric.TPOT, Metric.E2EL, Metric.QUEUE_TIME, Metric.MAX_STALL);

    /** The run-level metrics a digest keeps, with their values in time slices. */
    public static final List<Metric> RATES =
            List.of(Metric.GOODPUT, Metric.REQUEST_THROUGHPUT, Metric.OUTPUT_TOKEN_THROUGHPUT);

    /** The number of equal time slices of the measurement window that rates are also counted in. */
    public static final int SLICES = 16;

    private static final ObjectMapper JSON =
            new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    public RunDigest {
        Objects.requireNonNull(test, "test");
        identity = Map.copyOf(identity);
        trials = List.copyOf(trials);
        if (trials.isEmpty()) {
            throw new IllegalArgumentException("a digest needs at least one trial");
        }
    }

    /**
     * One trial of a gate.
     *
     * @param samples per-request values in milliseconds, in schedule order, of the measured successful requests,
     *     by metric name (for example {@code "TTFT"})
     * @param rates the run-level values by metric name, NaN when undefined
     * @param rateSlices the same rates measured in each of {@value #SLICES} equal slices of the window
     * @param intendedRate the mean rate of the measured requests' intended start times (NaN in a closed loop,
     *     where the client sets no times)
     * @param achievedRate the mean rate at which they were sent
     * @param clientTrustworthy whether the client kept up with its schedule
     * @param clientProblem why it did not, or {@code null}
     * @param measured measured requests
     * @param succeeded measured requests that succeeded
     */
    @API(status = EXPERIMENTAL, since = "0.2")
    public record Trial(
            Map<String, double[]> samples,
            Map<String, Double> rates,
            @JsonProperty("rate_slices") Map<String, double[]> rateSlices,
            @JsonProperty("intended_rate") double intendedRate,
            @JsonProperty("achieved_rate") double achievedRate,
            @JsonProperty("client_trustworthy") boolean clientTrustworthy,
            @JsonProperty("client_problem") String clientProblem,
            long measured,
            long succeeded) {

        public Trial {
            samples = Map.copyOf(samples);
            rates = Map.copyOf(rates);
            rateSlices = Map.copyOf(rateSlices);
        }

        /** Returns the samples of a metric in milliseconds, empty when the trial has none. */
        public double[] samples(Metric metric) {
            return samples.getOrDefault(metric.name(), new double[0]).clone();
        }

        /** Returns a run-level value, NaN when the trial has none. */
        public double rate(Metric metric) {
            Double value = rates.get(metric.name());
            return value == null ? Double.NaN : value;
        }

        /** Returns a rate in each time slice, empty when the trial has none. */
        public double[] rateSlices(Metric metric) {
            return rateSlices.getOrDefault(metric.name(), new double[0]).clone();
        }
    }

    /**
     * Returns the digest of a gate's trials, which must be runs of the same spec.
     *
     * @throws IllegalArgumentException if there are no trials
     */
    public static RunDigest of(String test, List<RunResult> trials) {
        if (trials.isEmpty()) {
            throw new IllegalArgumentException("a digest needs at least one trial");
        }
        RunResult last = trials.get(trials.size() - 1);
        List<Trial> digested = trials.stream().map(RunDigest::trial).toList();
        return new RunDigest(
                FORMAT,
                test,
                last.environment().startedAt().toString(),
                last.environment().goodputVersion(),
                Identity.of(last),
                digested);
    }

    /**
     * Reads a digest written by {@link #write(Path)}.
     *
     * @throws IllegalArgumentException naming the file and, in its own terms (line, column, field), why it is not a
     *     baseline: empty, cut short, not JSON, a field of the wrong shape, another format
     */
    public static RunDigest read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    file + " cannot be read: " + e.getClass().getSimpleName());
        }
        if (text.isBlank()) {
            throw new IllegalArgumentException(file + " is not a Goodput baseline: the file is empty");
        }
        RunDigest digest;
        try {
            digest = JSON.readValue(text, RunDigest.class);
        } catch (JsonProcessingException e) {
            // No cause: Jackson's message names its own classes and a source description, not the file's terms.
            throw new IllegalArgumentException(file + " is not a Goodput baseline: " + JsonProblems.inFile(e));
        }
        if (digest == null || digest.trials() == null || digest.identity() == null) {
            throw new IllegalArgumentException(file + " is not a Goodput baseline: it has no trials or no identity");
        }
        if (digest.format() != FORMAT) {
            throw new IllegalArgumentException(file + " has baseline format " + digest.format()
                    + "; this Goodput reads format " + FORMAT + " (record the baseline again)");
        }
        return digest;
    }

    /** Writes this digest as JSON, creating the parent directories. */
    public Path write(Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            // Not createTempFile: its owner-only permissions would follow the file into a repository.
            Path temporary = parent.resolve(
                    file.getFileName() + "." + ProcessHandle.current().pid() + "."
                            + Thread.currentThread().getId() + ".tmp");
            JSON.writerWithDefaultPrettyPrinter().writeValue(temporary.toFile(), this);
            return Files.move(
                    temporary,
                    file,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the baseline " + file, e);
        }
    }

    private static Trial trial(RunResult result) {
        List<RequestRecord> measured = result.records().stream()
                .filter(record -> record.phase() == Phase.MEASURED)
                .toList();
        List<RequestRecord> successes =
                measured.stream().filter(RequestRecord::isSuccess).toList();
        Map<String, double[]> samples = new LinkedHashMap<>();
        for (Metric metric : SAMPLED) {
            double[] values = new double[successes.size()];
            int count = 0;
            for (RequestRecord record : successes) {
                double value = ResultCalculator.requestValue(metric, record);
                if (!Double.isNaN(value)) {
                    // Microsecond resolution keeps a stored baseline small and is finer than any verdict needs.
                    values[count++] = Math.round(value / 1e3) / 1e3;
                }
            }
            samples.put(metric.name(), Arrays.copyOf(values, count));
        }
        Map<String, Double> rates = new LinkedHashMap<>();
        for (Metric metric : RATES) {
            rates.put(metric.name(), result.value(metric));
        }
        return new Trial(
                samples,
                rates,
                rateSlices(result, measured),
                intendedRate(measured),
                result.load().achievedRate(),
                result.clientHealth().trustworthy(),
                result.clientHealth().reason(),
                measured.size(),
                successes.size());
    }

    private static Map<String, double[]> rateSlices(RunResult result, List<RequestRecord> measured) {
        long start = result.load().windowStartNanos();
        long window = result.load().windowNanos();
        Map<String, double[]> slices = new LinkedHashMap<>();
        double[] good = new double[SLICES];
        double[] succeeded = new double[SLICES];
        double[] tokens = new double[SLICES];
        if (window > 0) {
            double sliceSeconds = window / 1e9 / SLICES;
            for (RequestRecord record : measured) {
                if (!record.isSuccess()) {
                    continue;
                }
                int slice = (int) Math.min(SLICES - 1, Math.max(0, (record.endNanos() - start) * SLICES / window));
                succeeded[slice] += 1 / sliceSeconds;
                tokens[slice] += record.outputTokens() / sliceSeconds;
                if (dev.goodput.core.result.internal.ClassSplit.isGood(record, result.spec())) {
                    good[slice] += 1 / sliceSeconds;
                }
            }
        }
        slices.put(Metric.GOODPUT.name(), good);
        slices.put(Metric.REQUEST_THROUGHPUT.name(), succeeded);
        slices.put(Metric.OUTPUT_TOKEN_THROUGHPUT.name(), tokens);
        return slices;
    }

    private static double intendedRate(List<RequestRecord> measured) {
        if (measured.size() < 2) {
            return Double.NaN;
        }
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (RequestRecord record : measured) {
            first = Math.min(first, record.intendedNanos());
            last = Math.max(last, record.intendedNanos());
        }
        return last > first ? (measured.size() - 1) * 1e9 / (last - first) : Double.NaN;
    }

    /** Returns the test's trials' samples of a metric, concatenated in trial order. */
    double[] pooledSamples(Metric metric) {
        List<double[]> parts = new ArrayList<>();
        int total = 0;
        for (Trial trial : trials) {
            double[] part = trial.samples(metric);
            parts.add(part);
            total += part.length;
        }
        double[] pooled = new double[total];
        int at = 0;
        for (double[] part : parts) {
            System.arraycopy(part, 0, pooled, at, part.length);
            at += part.length;
        }
        return pooled;
    }
}
