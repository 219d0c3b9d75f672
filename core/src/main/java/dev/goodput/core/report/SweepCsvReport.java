package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.slo.Metric;
import dev.goodput.core.stats.Summary;
import dev.goodput.core.sweep.SweepPoint;
import dev.goodput.core.sweep.SweepResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.apiguardian.api.API;

/** Writes a sweep's summary as CSV, one row per run in the order made; latencies in milliseconds. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class SweepCsvReport {

    /** The header row. */
    public static final String HEADER = "run,role,offered_rps,achieved_rps,request_throughput_rps,goodput_rps,"
            + "output_token_throughput_tps,slo_attainment,error_rate,ttft_p50_ms,ttft_p90_ms,ttft_p99_ms,"
            + "tpot_p50_ms,tpot_p90_ms,tpot_p99_ms,e2el_p50_ms,e2el_p99_ms,all_objectives_met,stopped_early,"
            + "server_peak_kv_cache_usage,server_peak_waiting,server_preemptions,energy_per_output_token_j";

    private SweepCsvReport() {}

    /** Returns the CSV text, header first, lines ending in {@code \n}. */
    public static String format(SweepResult result) {
        StringBuilder csv = new StringBuilder(HEADER).append('\n');
        int run = 0;
        for (SweepPoint point : result.points()) {
            var r = point.result();
            csv.append(++run)
                    .append(',')
                    .append(point.role().name().toLowerCase(Locale.ROOT))
                    .append(',')
                    .append(number(point.offeredRate()))
                    .append(',')
                    .append(number(r.load().achievedRate()))
                    .append(',')
                    .append(number(point.throughput()))
                    .append(',')
                    .append(number(r.goodput()))
                    .append(',')
                    .append(number(r.value(Metric.OUTPUT_TOKEN_THROUGHPUT)))
                    .append(',')
                    .append(number(point.attainment()))
                    .append(',')
                    .append(number(point.errorRate()));
            for (Metric metric : new Metric[] {Metric.TTFT, Metric.TPOT}) {
                for (double p : new double[] {50, 90, 99}) {
                    csv.append(',').append(millis(r.summary(metric), p));
                }
            }
            csv.append(',').append(millis(r.summary(Metric.E2EL), 50));
            csv.append(',').append(millis(r.summary(Metric.E2EL), 99));
            csv.append(',').append(r.allMet());
            csv.append(',').append(point.stoppedEarly() ? quote(point.stopReason()) : "");
            var server = r.serverMetrics().figures();
            csv.append(',').append(number(server.peakKvCacheUsage()));
            csv.append(',').append(number(server.peakWaiting()));
            csv.append(',').append(number(server.preemptions()));
            csv.append(',').append(number(server.energyPerOutputToken()));
            csv.append('\n');
        }
        return csv.toString();
    }

    /** Writes the CSV to a file, creating its directory. */
    public static void write(SweepResult result, Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, format(result), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static String millis(Summary summary, double percentile) {
        Double value = summary.percentiles().get(percentile);
        return value == null ? "" : number(value / 1e6);
    }

    private static String number(double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.4f", value);
    }

    private static String quote(String text) {
        return '"' + text.replace("\"", "\"\"") + '"';
    }
}
