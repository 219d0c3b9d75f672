package dev.goodput.core.servermetrics.internal;

import static dev.goodput.core.servermetrics.internal.ServerSignal.GENERATION_TOKENS;
import static dev.goodput.core.servermetrics.internal.ServerSignal.GPU_ENERGY;
import static dev.goodput.core.servermetrics.internal.ServerSignal.GPU_MEMORY_BANDWIDTH_UTILIZATION;
import static dev.goodput.core.servermetrics.internal.ServerSignal.GPU_POWER;
import static dev.goodput.core.servermetrics.internal.ServerSignal.GPU_UTILIZATION;
import static dev.goodput.core.servermetrics.internal.ServerSignal.KV_CACHE_USAGE;
import static dev.goodput.core.servermetrics.internal.ServerSignal.PREEMPTIONS;
import static dev.goodput.core.servermetrics.internal.ServerSignal.PREFIX_CACHE_HITS;
import static dev.goodput.core.servermetrics.internal.ServerSignal.PREFIX_CACHE_HIT_RATE;
import static dev.goodput.core.servermetrics.internal.ServerSignal.PREFIX_CACHE_QUERIES;
import static dev.goodput.core.servermetrics.internal.ServerSignal.PROMPT_TOKENS;
import static dev.goodput.core.servermetrics.internal.ServerSignal.RUNNING_REQUESTS;
import static dev.goodput.core.servermetrics.internal.ServerSignal.SERVER_E2E;
import static dev.goodput.core.servermetrics.internal.ServerSignal.SERVER_ITL;
import static dev.goodput.core.servermetrics.internal.ServerSignal.SERVER_QUEUE_TIME;
import static dev.goodput.core.servermetrics.internal.ServerSignal.SERVER_TTFT;
import static dev.goodput.core.servermetrics.internal.ServerSignal.WAITING_REQUESTS;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Every server metric name Goodput understands, and the signal it means: vLLM (current and deprecated names),
 * SGLang, TGI, llama.cpp and NVIDIA's DCGM exporter. Only names that truly measure the signal are mapped; where
 * a server has no equivalent the list says so. Gauge and counter names are whole sample names (with
 * {@code _total} where the server writes it, and both spellings where servers differ); histogram names are the
 * family name without {@code _bucket}, {@code _sum} or {@code _count}.
 */
public final class ServerMetricNames {

    /**
     * One name a server exports for a signal.
     *
     * @param name the sample name (gauges, counters) or histogram family name
     * @param signal what it means
     * @param scale what a value (for histograms: each bound and the sum) is multiplied by to be in the signal's
     *     unit, e.g. 0.01 for a percentage
     * @param fallback whether it is read only when no other name of the signal is in the same scrape: deprecated
     *     names, and a less precise measure of the same thing
     */
    public record SeriesName(String name, ServerSignal signal, double scale, boolean fallback) {}

    private static final List<SeriesName> ALL = Stream.of(
                    vllm(), sglang(), textGenerationInference(), llamaCpp(), dcgm())
            .flatMap(List::stream)
            .toList();

    private static final Map<String, SeriesName> BY_NAME = index();

    private ServerMetricNames() {}

    /** Returns every mapped name, server by server. */
    public static List<SeriesName> all() {
        return ALL;
    }

    /** Returns what a sample name (gauges, counters) or histogram family name means, if Goodput knows it. */
    public static Optional<SeriesName> of(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    private static List<SeriesName> vllm() {
        return List.of(
                current("vllm:num_requests_running", RUNNING_REQUESTS),
                current("vllm:num_requests_waiting", WAITING_REQUESTS),
                current("vllm:kv_cache_usage_perc", KV_CACHE_USAGE), // a fraction despite its name
                fallback("vllm:gpu_cache_usage_perc", KV_CACHE_USAGE, 1), // deprecated 0.10, removed 0.12
                current("vllm:num_preemptions_total", PREEMPTIONS),
                current("vllm:num_preemptions", PREEMPTIONS),
                current("vllm:prefix_cache_queries_total", PREFIX_CACHE_QUERIES),
                current("vllm:prefix_cache_queries", PREFIX_CACHE_QUERIES),
                fallback("vllm:gpu_prefix_cache_queries_total", PREFIX_CACHE_QUERIES, 1),
                fallback("vllm:gpu_prefix_cache_queries", PREFIX_CACHE_QUERIES, 1),
                current("vllm:prefix_cache_hits_total", PREFIX_CACHE_HITS),
                current("vllm:prefix_cache_hits", PREFIX_CACHE_HITS),
                fallback("vllm:gpu_prefix_cache_hits_total", PREFIX_CACHE_HITS, 1),
                fallback("vllm:gpu_prefix_cache_hits", PREFIX_CACHE_HITS, 1),
                fallback("vllm:gpu_prefix_cache_hit_rate", PREFIX_CACHE_HIT_RATE, 1), // the V0 engine's gauge
                current("vllm:prompt_tokens_total", PROMPT_TOKENS),
                current("vllm:prompt_tokens", PROMPT_TOKENS),
                current("vllm:generation_tokens_total", GENERATION_TOKENS),
                current("vllm:generation_tokens", GENERATION_TOKENS),
                current("vllm:time_to_first_token_seconds", SERVER_TTFT), // from the front end's arrival
                current("vllm:inter_token_latency_seconds", SERVER_ITL),
                // The same per-output-event interval under its old name (deprecated 0.11); not to be confused
                // with vllm:request_time_per_output_token_seconds, one mean per request, which is left unmapped.
                fallback("vllm:time_per_output_token_seconds", SERVER_ITL, 1),
                current("vllm:e2e_request_latency_seconds", SERVER_E2E),
                current("vllm:request_queue_time_seconds", SERVER_QUEUE_TIME)); // QUEUED -> first SCHEDULED
    }

    private static List<SeriesName> sglang() {
        // No queried-tokens counter: PROMPT_TOKENS (whole prompts, cached part included) is the denominator of
        // a hit rate from sglang:cached_tokens_total, and SGLang also exports its own rate.
        return List.of(
                current("sglang:num_running_reqs", RUNNING_REQUESTS),
                current("sglang:num_queue_reqs", WAITING_REQUESTS),
                current("sglang:token_usage", KV_CACHE_USAGE), // KV tokens in use / KV token capacity
                current("sglang:cache_hit_rate", PREFIX_CACHE_HIT_RATE),
                current("sglang:cached_tokens_total", PREFIX_CACHE_HITS), // summed over cache_source, if labelled
                // Retraction is SGLang's preemption; this histogram of retractions per request sums them, counted
                // when each request finishes.
                current("sglang:num_retractions_sum", PREEMPTIONS),
                current("sglang:prompt_tokens_total", PROMPT_TOKENS),
                current("sglang:generation_tokens_total", GENERATION_TOKENS),
                current("sglang:time_to_first_token_seconds", SERVER_TTFT),
                current("sglang:inter_token_latency_seconds", SERVER_ITL),
                fallback("sglang:time_per_output_token_seconds", SERVER_ITL, 1), // older builds' name
                current("sglang:e2e_request_latency_seconds", SERVER_E2E),
                current("sglang:queue_time_seconds", SERVER_QUEUE_TIME));
    }

    private static List<SeriesName> textGenerationInference() {
        // No KV-cache fraction, prefix-cache or preemption metrics, and no TTFT or ITL histogram:
        // tgi_request_mean_time_per_token_duration is one mean per request, not the time between tokens.
        return List.of(
                current("tgi_batch_current_size", RUNNING_REQUESTS),
                current("tgi_queue_size", WAITING_REQUESTS),
                // Token counts are histograms per request; their sums are the running totals (prompt lengths
                // counted at validation, generated tokens when a request ends).
                current("tgi_request_input_length_sum", PROMPT_TOKENS),
                current("tgi_request_generated_tokens_sum", GENERATION_TOKENS),
                current("tgi_request_queue_duration", SERVER_QUEUE_TIME), // seconds
                current("tgi_request_duration", SERVER_E2E)); // from the router's arrival to the end, seconds
    }

    private static List<SeriesName> llamaCpp() {
        // No histograms (only averages such as llamacpp:predicted_tokens_seconds), no prefix-cache counters,
        // no preemptions; kv_cache_usage_ratio exists only in some builds.
        return List.of(
                current("llamacpp:requests_processing", RUNNING_REQUESTS),
                current("llamacpp:requests_deferred", WAITING_REQUESTS),
                current("llamacpp:kv_cache_usage_ratio", KV_CACHE_USAGE),
                current("llamacpp:prompt_tokens_total", PROMPT_TOKENS), // moves at each request's first token
                current("llamacpp:tokens_predicted_total", GENERATION_TOKENS)); // moves when a request ends
    }

    private static List<SeriesName> dcgm() {
        return List.of(
                // The profiling field measures the fraction of time the graphics engine was active per cycle,
                // more precisely than the sampled DEV_GPU_UTIL percentage, which is the fallback.
                current("DCGM_FI_PROF_GR_ENGINE_ACTIVE", GPU_UTILIZATION),
                fallback("DCGM_FI_DEV_GPU_UTIL", GPU_UTILIZATION, 0.01), // percent
                current("DCGM_FI_DEV_POWER_USAGE", GPU_POWER), // W
                new SeriesName("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", GPU_ENERGY, 0.001, false), // mJ since boot
                current("DCGM_FI_PROF_DRAM_ACTIVE", GPU_MEMORY_BANDWIDTH_UTILIZATION),
                // Percent of time device memory was read or written, the nvidia-smi "memory utilisation".
                fallback("DCGM_FI_DEV_MEM_COPY_UTIL", GPU_MEMORY_BANDWIDTH_UTILIZATION, 0.01));
    }

    private static SeriesName current(String name, ServerSignal signal) {
        return new SeriesName(name, signal, 1, false);
    }

    private static SeriesName fallback(String name, ServerSignal signal, double scale) {
        return new SeriesName(name, signal, scale, true);
    }

    private static Map<String, SeriesName> index() {
        Map<String, SeriesName> byName = new LinkedHashMap<>();
        for (SeriesName name : ALL) {
            if (byName.put(name.name(), name) != null) {
                throw new IllegalStateException("metric name mapped twice: " + name.name());
            }
        }
        return Map.copyOf(byName);
    }
}
