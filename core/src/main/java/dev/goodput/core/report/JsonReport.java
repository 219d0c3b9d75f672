package dev.goodput.core.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.goodput.core.RunSpec;
import dev.goodput.core.internal.Units;
import dev.goodput.core.load.RunLength;
import dev.goodput.core.report.internal.ServerMetricsSection;
import dev.goodput.core.result.Accounting;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.SloVerdict;
import dev.goodput.core.slo.internal.MetricUnits;
import dev.goodput.core.stats.ConfidenceInterval;
import dev.goodput.core.stats.Summary;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Writes a {@link RunResult} as JSON: a {@code schema_version}, the run's full configuration and environment,
 * the accounting, why requests failed ({@code failures}: by outcome, and by reason with counts and example request
 * indices, warm-up and cool-down included), every metric summary, every verdict, and a {@code vllm} block with the
 * key names and definitions of vLLM's {@code bench serve} result so that dashboards reading vLLM's JSON read ours.
 *
 * <p>Latencies are in milliseconds (keys end in {@code _ms}); rates per second; ratios between 0 and 1. A
 * value that does not exist (no samples) is {@code null}. The API key never appears: the configuration holds
 * only the name of its environment variable.
 *
 * <p>Longer than 300 lines because result.json has one writer: each block (load, metrics, verdicts, run length,
 * classes, tokens, client health, vLLM's names) is a short method beside the others, so the file reads as the schema.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class JsonReport {

    /** The version of the JSON layout; it changes when a key is renamed or removed. */
    public static final int SCHEMA_VERSION = 1;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonReport() {}

    /** Writes the result to a file, creating its directory. */
    public static void write(RunResult result, Path file) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            try (OutputStream out = Files.newOutputStream(file)) {
                write(result, out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the JSON result to " + file, e);
        }
    }

    /** Writes the result to a stream, pretty-printed, leaving the stream open. */
    public static void write(RunResult result, OutputStream out) throws IOException {
        JsonFactory factory = MAPPER.getFactory();
        try (JsonGenerator json = factory.createGenerator(out, JsonEncoding.UTF8)) {
            json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            json.useDefaultPrettyPrinter();
            json.setCodec(MAPPER);
            json.writeStartObject();
            json.writeNumberField("schema_version", SCHEMA_VERSION);
            json.writeStringField("goodput_version", result.environment().goodputVersion());
            json.writeStringField("started_at", result.environment().startedAt().toString());
            writeEnvironment(json, result);
            writeConfiguration(json, result.spec());
            writeAccounting(json, result.accounting());
            FailuresJson.write(json, result.failures());
            if (result.spec().load().requestPolicy().retries() > 0) {
                json.writeObjectFieldStart("retries");
                json.writeNumberField(
                        "max_retries", result.spec().load().requestPolicy().retries());
                json.writeNumberField(
                        "retried_requests",
                        result.records().stream().filter(r -> r.attempts() > 1).count());
                json.writeNumberField(
                        "retried_attempts",
                        result.records().stream()
                                .mapToLong(r -> r.retriedAttempts().size())
                                .sum());
                json.writeEndObject();
            }
            json.writeNumberField("connection_retries", result.connectionRetries());
            writeLoad(json, result);
            writeMetrics(json, result);
            writeVerdicts(json, result);
            writeRunLength(json, result.runLength());
            writeClasses(json, result);
            json.writeObjectField("notes", result.notes());
            TokensJson.write(json, result);
            StreamPhasesReport.of(result).writeJson(json);
            json.writeObjectFieldStart("client_health");
            json.writeBooleanField("trustworthy", result.clientHealth().trustworthy());
            number(json, "send_lag_p99_ms", result.clientHealth().sendLagP99Nanos() / 1e6);
            number(json, "send_lag_limit_ms", result.clientHealth().sendLagLimitNanos() / 1e6);
            number(json, "pause_p99_ms", result.clientHealth().pauseP99Nanos() / 1e6);
            json.writeStringField("reason", result.clientHealth().reason());
            json.writeEndObject();
            ServerMetricsSection.writeJson(json, result);
            json.writeFieldName("vllm");
            json.writeObject(VllmCompatibility.block(result));
            json.writeEndObject();
        }
    }

    /** Returns the result as a JSON string. */
    public static String toJson(RunResult result) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try {
            write(result, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    private static void writeEnvironment(JsonGenerator json, RunResult result) throws IOException {
        var environment = result.environment();
        json.writeObjectFieldStart("environment");
        json.writeStringField("java_version", environment.javaVersion());
        json.writeStringField("java_vendor", environment.javaVendor());
        json.writeStringField("os_name", environment.osName());
        json.writeStringField("os_arch", environment.osArch());
        json.writeNumberField("available_processors", environment.availableProcessors());
        json.writeEndObject();
    }

    private static void writeConfiguration(JsonGenerator json, RunSpec spec) throws IOException {
        json.writeObjectFieldStart("configuration");
        json.writeObjectField("server", spec.server().describe());
        json.writeObjectField("workload", spec.workload().describe());
        json.writeObjectField("load", spec.load().describe());
        json.writeArrayFieldStart("slos");
        for (SloSpec slo : spec.objectives()) {
            writeSlo(json, slo);
        }
        json.writeEndArray();
        json.writeObjectField("percentiles", spec.percentiles());
        json.writeNumberField("confidence", spec.confidence());
        json.writeBooleanField("preflight", spec.preflight());
        json.writeNumberField("send_lag_limit_ms", spec.sendLagLimit().toNanos() / 1e6);
        json.writeBooleanField("client_output_tokenizer", spec.outputTokenCounter() != null);
        json.writeEndObject();
    }

    private static void writeSlo(JsonGenerator json, SloSpec slo) throws IOException {
        json.writeStartObject();
        json.writeStringField("text", slo.toString());
        json.writeStringField("metric", slo.metric().name());
        json.writeStringField("statistic", slo.statistic().name());
        number(json, "percentile", slo.percentile());
        json.writeStringField("comparison", slo.comparison().name());
        number(json, "threshold", inReportUnit(slo.metric(), slo.threshold()));
        json.writeStringField("unit", reportUnit(slo.metric()));
        json.writeStringField("workload_class", slo.trafficClass());
        json.writeEndObject();
    }

    /** Writes each workload class's own figures and verdicts, in the mix's order; nothing without classes. */
    private static void writeClasses(JsonGenerator json, RunResult result) throws IOException {
        if (result.classes().isEmpty()) {
            return;
        }
        json.writeObjectFieldStart("classes");
        for (Map.Entry<String, RunResult> entry : result.classes().entrySet()) {
            json.writeObjectFieldStart(entry.getKey());
            writeAccounting(json, entry.getValue().accounting());
            writeLoad(json, entry.getValue());
            writeMetrics(json, entry.getValue());
            writeVerdicts(json, entry.getValue());
            json.writeEndObject();
        }
        json.writeEndObject();
    }

    private static void writeAccounting(JsonGenerator json, Accounting accounting) throws IOException {
        json.writeObjectFieldStart("accounting");
        json.writeNumberField("scheduled", accounting.scheduled());
        json.writeObjectField("by_outcome", lowerKeys(accounting.byOutcome()));
        json.writeObjectField("by_phase", lowerKeys(accounting.byPhase()));
        json.writeObjectField("measured_by_outcome", lowerKeys(accounting.measuredByOutcome()));
        json.writeEndObject();
    }

    private static void writeLoad(JsonGenerator json, RunResult result) throws IOException {
        json.writeObjectFieldStart("load");
        number(json, "offered_rate", result.load().offeredRate());
        number(json, "achieved_rate", result.load().achievedRate());
        json.writeNumberField("window_s", result.load().windowSeconds());
        json.writeNumberField("peak_in_flight", result.load().peakInFlight());
        dev.goodput.core.report.internal.SteadyStateText.writeJson(json, result);
        json.writeEndObject();
    }

    private static void writeMetrics(JsonGenerator json, RunResult result) throws IOException {
        json.writeObjectFieldStart("metrics");
        for (Metric metric : result.summaries().keySet()) {
            Summary summary = result.summaries().get(metric);
            double scale = metric.isLatency() ? 1e6 : 1; // latencies in ms, counts as they are
            json.writeObjectFieldStart(key(metric) + (metric.isLatency() ? "_ms" : ""));
            json.writeNumberField("count", summary.count());
            number(json, "mean", summary.mean() / scale);
            number(json, "std", summary.standardDeviation() / scale);
            number(json, "min", summary.min() / scale);
            number(json, "max", summary.max() / scale);
            for (Map.Entry<Double, Double> percentile : summary.percentiles().entrySet()) {
                number(json, "p" + Units.formatPercentile(percentile.getKey()), percentile.getValue() / scale);
            }
            json.writeEndObject();
        }
        for (Map.Entry<Metric, Double> entry : result.values().entrySet()) {
            number(json, key(entry.getKey()), entry.getValue());
        }
        json.writeNumberField("good_requests", result.goodRequests());
        json.writeEndObject();
    }

    /** Writes how long the run lasted and why it stopped; {@code until_decided: false} for a run of fixed length. */
    private static void writeRunLength(JsonGenerator json, RunLength length) throws IOException {
        json.writeObjectFieldStart("run_length");
        json.writeBooleanField("until_decided", length.untilDecided());
        if (length.untilDecided()) {
            json.writeNumberField("look_confidence", length.lookConfidence());
            json.writeBooleanField("decided", length.decided());
            if (length.moreRequests().isPresent()) {
                json.writeNumberField(
                        "more_requests_to_decide", length.moreRequests().getAsLong());
            }
            json.writeStringField("stop_reason", length.stopReason());
            json.writeArrayFieldStart("looks");
            for (RunLength.Look look : length.looks()) {
                json.writeStartObject();
                json.writeNumberField("look", look.number());
                json.writeNumberField("planned", look.planned());
                json.writeNumberField("measured_requests", look.measuredRequests());
                json.writeNumberField("decided", look.decided());
                json.writeNumberField("undecided", look.undecided());
                json.writeEndObject();
            }
            json.writeEndArray();
        }
        json.writeEndObject();
    }

    private static void writeVerdicts(JsonGenerator json, RunResult result) throws IOException {
        json.writeArrayFieldStart("verdicts");
        for (SloVerdict verdict : result.verdicts()) {
            Metric metric = verdict.objective().metric();
            json.writeStartObject();
            json.writeStringField("slo", verdict.objective().toString());
            json.writeStringField("verdict", verdict.verdict().name());
            number(json, "measured", inReportUnit(metric, verdict.measured()));
            number(json, "threshold", inReportUnit(metric, verdict.objective().threshold()));
            json.writeStringField("unit", reportUnit(metric));
            ConfidenceInterval interval = verdict.interval();
            if (interval != null) {
                number(json, "ci_lower", inReportUnit(metric, interval.lower()));
                number(json, "ci_upper", inReportUnit(metric, interval.upper()));
                json.writeNumberField("ci_confidence", interval.confidence());
                json.writeStringField("ci_method", interval.method());
            }
            json.writeNumberField("samples", verdict.sampleCount());
            number(json, "effective_samples", verdict.effectiveCount());
            json.writeStringField("reason", verdict.reason());
            json.writeStringField("text", verdict.describe());
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    static String key(Metric metric) {
        return metric.name().toLowerCase(Locale.ROOT);
    }

    private static double inReportUnit(Metric metric, double value) {
        return metric.isLatency() ? value / 1e6 : value;
    }

    private static String reportUnit(Metric metric) {
        return switch (metric.unit()) {
            case NANOSECONDS -> "ms";
            case PER_SECOND -> MetricUnits.perSecondUnit(metric);
            case RATIO -> "ratio";
            case COUNT -> "count";
            case JOULES_PER_TOKEN -> "J/token";
            case PRICE_PER_MILLION_TOKENS -> "price per million tokens";
        };
    }

    static <K extends Enum<K>> Map<String, Long> lowerKeys(Map<K, Long> counts) {
        Map<String, Long> lower = new java.util.LinkedHashMap<>();
        counts.forEach((key, count) -> lower.put(key.name().toLowerCase(Locale.ROOT), count));
        return lower;
    }

    static void number(JsonGenerator json, String name, double value) throws IOException {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            json.writeNullField(name);
        } else {
            json.writeNumberField(name, value);
        }
    }
}
