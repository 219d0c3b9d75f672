package dev.goodput.mock.internal.http;

import dev.goodput.mock.ChunkTiming;
import dev.goodput.mock.Fault;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.RequestTruth;
import dev.goodput.mock.internal.engine.EngineSnapshot;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The server's Prometheus metrics, under vLLM's names: gauges and token counters from the engine's snapshot,
 * request counters and latency histograms from the ground truth (the true send times, not the model's
 * intentions), queue times from the engine's scheduler, {@code vllm:cache_config_info} from the KV model, and a
 * simulated GPU under DCGM's names ({@link GpuTelemetry}). With {@code SimulatedMetrics.deprecatedVllmNames} the
 * KV and prefix-cache series are also written under the names vLLM 0.10 still exported beside the new ones.
 */
final class ServerMetrics {

    private final String labels;
    private final LatencyHistogram ttft = new LatencyHistogram(LatencyHistogram.TTFT_BUCKETS);
    private final LatencyHistogram interToken = new LatencyHistogram(LatencyHistogram.ITL_BUCKETS);
    private final LatencyHistogram e2e = new LatencyHistogram(LatencyHistogram.E2E_BUCKETS);
    // vLLM gives its request-phase histograms (queue, prefill, decode, inference) the E2E buckets.
    private final LatencyHistogram queue = new LatencyHistogram(LatencyHistogram.E2E_BUCKETS);
    private final String cacheConfigLabels;
    private final boolean deprecatedNames;
    private final GpuTelemetry gpu;
    private final Map<String, Long> successByReason = new TreeMap<>();
    private final Map<Fault, Long> faults = new EnumMap<>(Fault.class);

    ServerMetrics(MockServerConfig config, GpuTelemetry gpu) {
        this.labels = "engine=\"0\",model_name=\"" + escape(config.modelName()) + "\"";
        PerformanceModel model = config.performanceModel();
        this.cacheConfigLabels = labels + ",block_size=\"" + model.blockSize() + "\",enable_prefix_caching=\""
                + (model.prefixCaching() ? "True" : "False") + "\",num_gpu_blocks=\""
                + model.kvCacheTokens() / model.blockSize() + "\"";
        this.deprecatedNames = config.simulatedMetrics().deprecatedVllmNames();
        this.gpu = gpu;
    }

    /** Feeds one generation's queue time: from arrival to its first scheduling in an engine step. */
    void observeQueueNanos(long nanos) {
        queue.observeNanos(nanos);
    }

    /** Feeds a streamed request's time to first token, observed as its first chunk is sent. */
    void observeStreamedTtftNanos(long nanos) {
        ttft.observeNanos(nanos);
    }

    /**
     * Feeds one finished request into the counters and histograms; a streamed request's time to first token was fed
     * when its first chunk went out ({@link #observeStreamedTtftNanos}).
     */
    void observe(RequestTruth truth) {
        synchronized (this) {
            if (truth.status() == 200 && !truth.finishReason().equals("error")) {
                successByReason.merge(truth.finishReason(), 1L, Long::sum);
            }
            if (truth.fault() != Fault.NONE) {
                faults.merge(truth.fault(), 1L, Long::sum);
            }
        }
        List<ChunkTiming> chunks = truth.chunks();
        if (truth.status() != 200 || chunks.isEmpty() || chunks.get(0).sentNanos() < 0) {
            return;
        }
        if (!truth.stream()) {
            ttft.observeNanos(chunks.get(0).sentNanos() - truth.arrivalNanos());
        }
        for (int i = 1; i < chunks.size(); i++) {
            if (chunks.get(i).sentNanos() >= 0 && truth.stream()) {
                interToken.observeNanos(
                        chunks.get(i).sentNanos() - chunks.get(i - 1).sentNanos());
            }
        }
        e2e.observeNanos(truth.endNanos() - truth.arrivalNanos());
    }

    /**
     * Zeroes every counter and histogram, as on a fresh server; the engine's own counters are reset with the
     * engine. {@code busyNanos} is the reset engine's busy time at {@code nowNanos}.
     */
    void reset(long nowNanos, long busyNanos) {
        synchronized (this) {
            successByReason.clear();
            faults.clear();
        }
        for (LatencyHistogram histogram : List.of(ttft, interToken, e2e, queue)) {
            histogram.reset();
        }
        gpu.restart(nowNanos, busyNanos);
    }

    /** Renders the Prometheus text exposition format 0.0.4, sampling the GPU's busy time at {@code nowNanos}. */
    String render(EngineSnapshot engine, long nowNanos) {
        gpu.sample(nowNanos, engine.busyNanos());
        StringBuilder out = new StringBuilder(12288);
        gauge(out, "vllm:num_requests_running", "Number of requests in model execution batches.", engine.running());
        gauge(out, "vllm:num_requests_waiting", "Number of requests waiting to be processed.", engine.waiting());
        gauge(out, "vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", engine.kvCacheUsage());
        counter(
                out,
                "vllm:prefix_cache_queries",
                "Prefix cache queries, in terms of number of queried tokens.",
                engine.prefixCacheQueries());
        counter(
                out,
                "vllm:prefix_cache_hits",
                "Prefix cache hits, in terms of number of cached tokens.",
                engine.prefixCacheHits());
        if (deprecatedNames) {
            gauge(
                    out,
                    "vllm:gpu_cache_usage_perc",
                    "GPU KV-cache usage. 1 means 100 percent usage. DEPRECATED: use vllm:kv_cache_usage_perc.",
                    engine.kvCacheUsage());
            counter(
                    out,
                    "vllm:gpu_prefix_cache_queries",
                    "GPU prefix cache queries. DEPRECATED: use vllm:prefix_cache_queries.",
                    engine.prefixCacheQueries());
            counter(
                    out,
                    "vllm:gpu_prefix_cache_hits",
                    "GPU prefix cache hits. DEPRECATED: use vllm:prefix_cache_hits.",
                    engine.prefixCacheHits());
        }
        counter(out, "vllm:num_preemptions", "Cumulative number of preemption from the engine.", engine.preemptions());
        counter(out, "vllm:prompt_tokens", "Number of prefill tokens processed.", engine.promptTokens());
        counter(out, "vllm:generation_tokens", "Number of generation tokens processed.", engine.generationTokens());
        synchronized (this) {
            header(out, "vllm:request_success_total", "Count of successfully processed requests.", "counter");
            for (String reason : new String[] {"abort", "length", "stop"}) {
                out.append("vllm:request_success_total{")
                        .append(labels)
                        .append(",finished_reason=\"")
                        .append(reason)
                        .append("\"} ")
                        .append((double) successByReason.getOrDefault(reason, 0L))
                        .append('\n');
            }
            header(out, "goodput_mock:faults_injected_total", "Faults the mock server injected, by fault.", "counter");
            for (Fault fault : Fault.values()) {
                if (fault != Fault.NONE) {
                    out.append("goodput_mock:faults_injected_total{")
                            .append(labels)
                            .append(",fault=\"")
                            .append(fault.cliName())
                            .append("\"} ")
                            .append((double) faults.getOrDefault(fault, 0L))
                            .append('\n');
                }
            }
        }
        histogram(out, "vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", ttft);
        histogram(out, "vllm:inter_token_latency_seconds", "Histogram of inter-token latency in seconds.", interToken);
        histogram(out, "vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.", e2e);
        histogram(
                out, "vllm:request_queue_time_seconds", "Histogram of time spent in WAITING phase for request.", queue);
        header(out, "vllm:cache_config_info", "Information of the LLMEngine CacheConfig", "gauge");
        out.append("vllm:cache_config_info{").append(cacheConfigLabels).append("} 1.0\n");
        gpu.render(out);
        return out.toString();
    }

    private void gauge(StringBuilder out, String name, String help, double value) {
        header(out, name, help, "gauge");
        out.append(name).append('{').append(labels).append("} ").append(value).append('\n');
    }

    private void counter(StringBuilder out, String name, String help, long value) {
        header(out, name + "_total", help, "counter");
        out.append(name)
                .append("_total{")
                .append(labels)
                .append("} ")
                .append((double) value)
                .append('\n');
    }

    private void histogram(StringBuilder out, String name, String help, LatencyHistogram histogram) {
        header(out, name, help, "histogram");
        histogram.render(out, name, labels);
    }

    private static void header(StringBuilder out, String name, String help, String type) {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
