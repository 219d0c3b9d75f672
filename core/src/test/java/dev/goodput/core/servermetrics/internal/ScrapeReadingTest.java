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
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.core.internal.redaction.SecretRedaction;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Each server's recorded exposition (test resources written from its source and documentation) read and reduced
 * to signals, and the aggregation and name-preference rules on small pages.
 */
class ScrapeReadingTest {

    private static ScrapeReading read(String resource) throws IOException {
        try (InputStream in = ScrapeReadingTest.class.getResourceAsStream("/servermetrics/" + resource)) {
            assertThat(in).as(resource).isNotNull();
            return ScrapeReading.of(
                    Exposition.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), SecretRedaction.none()));
        }
    }

    private static ScrapeReading reduce(String text) {
        return ScrapeReading.of(Exposition.parse(text, SecretRedaction.none()));
    }

    @Test
    void should_read_a_current_vllm() throws IOException {
        ScrapeReading reading = read("vllm-current.txt");
        assertThat(reading.values())
                .containsOnly(
                        entry(RUNNING_REQUESTS, 12.0),
                        entry(WAITING_REQUESTS, 3.0),
                        entry(KV_CACHE_USAGE, 0.4375),
                        entry(PREEMPTIONS, 7.0),
                        entry(PREFIX_CACHE_QUERIES, 120000.0),
                        entry(PREFIX_CACHE_HITS, 45000.0),
                        entry(PROMPT_TOKENS, 250000.0),
                        entry(GENERATION_TOKENS, 98000.0));
        assertThat(reading.histograms()).containsOnlyKeys(SERVER_TTFT, SERVER_ITL, SERVER_E2E, SERVER_QUEUE_TIME);
        Buckets ttft = reading.histograms().get(SERVER_TTFT);
        assertThat(ttft.upperBounds()).hasSize(23).startsWith(0.001, 0.005).endsWith(2560.0, Double.POSITIVE_INFINITY);
        assertThat(ttft.count()).isEqualTo(200);
        assertThat(ttft.sum()).isEqualTo(14.5);
        // Ranks: 20 by 0.04 s, 80 by 0.06 s, 150 by 0.08 s; the median lies 20 of 70 into (0.06, 0.08].
        assertThat(ttft.quantile(0.5)).isCloseTo(0.06 + 0.02 * 20 / 70, within(1e-12));
        assertThat(ttft.quantile(0.99)).isCloseTo(0.1 + 0.15 * 18 / 20, within(1e-12));
        assertThat(reading.histograms().get(SERVER_ITL).mean()).isCloseTo(0.023, within(1e-12));
        assertThat(reading.histograms().get(SERVER_E2E).count()).isEqualTo(200);
        assertThat(reading.histograms().get(SERVER_QUEUE_TIME).quantile(0.5)).isCloseTo(0.3 * 100 / 180, within(1e-12));
        assertThat(reading.unmapped())
                .extracting(Sample::name)
                .contains(
                        "process_resident_memory_bytes",
                        "vllm:request_success_total",
                        "vllm:iteration_tokens_total_bucket",
                        "vllm:request_time_per_output_token_seconds_sum",
                        "vllm:cache_config_info")
                .noneMatch(name -> name.endsWith("_created") || name.startsWith("vllm:time_to_first_token"));
        Sample cacheConfig = reading.unmapped().stream()
                .filter(sample -> sample.name().equals("vllm:cache_config_info"))
                .findFirst()
                .orElseThrow();
        assertThat(cacheConfig.labels())
                .containsEntry("num_gpu_blocks", "27264")
                .containsEntry("block_size", "16");
        assertThat(reading.unmapped().stream()
                        .filter(sample -> sample.name().equals("process_resident_memory_bytes"))
                        .findFirst()
                        .orElseThrow()
                        .value())
                .isEqualTo(2.147483648e9);
    }

    @Test
    void should_read_an_older_vllm_by_its_deprecated_names() throws IOException {
        ScrapeReading reading = read("vllm-deprecated.txt");
        assertThat(reading.values())
                .containsOnly(
                        entry(RUNNING_REQUESTS, 8.0),
                        entry(WAITING_REQUESTS, 0.0),
                        entry(KV_CACHE_USAGE, 0.9125),
                        entry(PREFIX_CACHE_HIT_RATE, 0.25),
                        entry(PREEMPTIONS, 31.0),
                        entry(PROMPT_TOKENS, 51200.0),
                        entry(GENERATION_TOKENS, 25600.0));
        Buckets itl = reading.histograms().get(SERVER_ITL);
        assertThat(itl.count()).isEqualTo(400);
        assertThat(itl.sum()).isEqualTo(13.0);
        assertThat(itl.upperBounds()).hasSize(14).endsWith(2.5, Double.POSITIVE_INFINITY);
        assertThat(reading.histograms()).containsOnlyKeys(SERVER_TTFT, SERVER_ITL, SERVER_E2E);
        assertThat(reading.unmapped())
                .extracting(Sample::name)
                .contains("vllm:cpu_cache_usage_perc", "vllm:num_requests_swapped");
    }

    @Test
    void should_read_sglang() throws IOException {
        ScrapeReading reading = read("sglang.txt");
        assertThat(reading.values())
                .containsOnly(
                        entry(RUNNING_REQUESTS, 24.0),
                        entry(WAITING_REQUESTS, 5.0),
                        entry(KV_CACHE_USAGE, 0.61),
                        entry(PREFIX_CACHE_HIT_RATE, 0.375),
                        entry(PREFIX_CACHE_HITS, 3.0e6),
                        entry(PREEMPTIONS, 4.0),
                        entry(PROMPT_TOKENS, 8.128902e6),
                        entry(GENERATION_TOKENS, 7.557572e6));
        assertThat(reading.histograms()).containsOnlyKeys(SERVER_TTFT, SERVER_ITL, SERVER_E2E, SERVER_QUEUE_TIME);
        Buckets queue = reading.histograms().get(SERVER_QUEUE_TIME);
        assertThat(queue.count()).isEqualTo(100);
        // 10 observations in the bucket bounded by 0: Prometheus answers that bound for ranks inside it.
        assertThat(queue.quantile(0.05)).isEqualTo(0.0);
        assertThat(queue.quantile(0.5)).isCloseTo(0.1 * 40 / 80, within(1e-12));
        assertThat(reading.histograms().get(SERVER_ITL).count()).isEqualTo(2000);
        assertThat(reading.histograms().get(SERVER_ITL).sum()).isEqualTo(27.5);
    }

    @Test
    void should_read_tgi() throws IOException {
        ScrapeReading reading = read("tgi.txt");
        assertThat(reading.values())
                .containsOnly(
                        entry(RUNNING_REQUESTS, 32.0),
                        entry(WAITING_REQUESTS, 9.0),
                        entry(PROMPT_TOKENS, 640000.0),
                        entry(GENERATION_TOKENS, 204800.0));
        assertThat(reading.histograms()).containsOnlyKeys(SERVER_QUEUE_TIME, SERVER_E2E);
        Buckets queue = reading.histograms().get(SERVER_QUEUE_TIME);
        assertThat(queue.upperBounds()).hasSize(36);
        assertThat(queue.count()).isEqualTo(1200);
        assertThat(queue.sum()).isEqualTo(14.25);
        // Rank 1080: 600 by 0.0001 x 1.5^11, 1100 by 1.5^15; 480 of 500 into (1.5^14, 1.5^15] x 0.0001.
        assertThat(queue.quantile(0.9)).isCloseTo(0.043205530517578125, within(1e-12));
        assertThat(reading.histograms().get(SERVER_E2E).mean()).isCloseTo(3150.5 / 1200, within(1e-12));
        assertThat(reading.unmapped())
                .extracting(Sample::name)
                .contains("tgi_request_count", "tgi_batch_forward_duration_bucket", "tgi_request_input_length_bucket");
    }

    @Test
    void should_read_llama_cpp() throws IOException {
        ScrapeReading reading = read("llamacpp.txt");
        assertThat(reading.values())
                .containsOnly(
                        entry(RUNNING_REQUESTS, 4.0),
                        entry(WAITING_REQUESTS, 2.0),
                        entry(KV_CACHE_USAGE, 0.8125),
                        entry(PROMPT_TOKENS, 1234560.0),
                        entry(GENERATION_TOKENS, 345678.0));
        assertThat(reading.histograms()).isEmpty();
    }

    @Test
    void should_read_dcgm_over_two_gpus_in_watts_joules_and_fractions() throws IOException {
        ScrapeReading reading = read("dcgm.txt");
        assertThat(reading.values())
                .containsOnlyKeys(GPU_UTILIZATION, GPU_POWER, GPU_ENERGY, GPU_MEMORY_BANDWIDTH_UTILIZATION);
        // The profiling fields win over DEV_GPU_UTIL and DEV_MEM_COPY_UTIL, and fractions average over GPUs.
        assertThat(reading.values().get(GPU_UTILIZATION)).isCloseTo((0.953125 + 0.890625) / 2, within(1e-12));
        assertThat(reading.values().get(GPU_MEMORY_BANDWIDTH_UTILIZATION))
                .isCloseTo((0.612305 + 0.543945) / 2, within(1e-12));
        assertThat(reading.values().get(GPU_POWER)).isCloseTo(1200.0, within(1e-9));
        assertThat(reading.values().get(GPU_ENERGY)).isCloseTo(2234567890.123, within(1e-3));
        assertThat(reading.unmapped())
                .extracting(Sample::name)
                .contains("DCGM_FI_DEV_GPU_TEMP")
                .doesNotContain("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_MEM_COPY_UTIL");
    }

    @Test
    void should_convert_dcgm_percentages_when_no_profiling_field_is_exported() {
        ScrapeReading reading = reduce("""
                DCGM_FI_DEV_GPU_UTIL{gpu="0"} 97
                DCGM_FI_DEV_GPU_UTIL{gpu="1"} 91
                DCGM_FI_DEV_MEM_COPY_UTIL{gpu="0"} 40
                """);
        assertThat(reading.values())
                .containsOnly(entry(GPU_UTILIZATION, 0.94), entry(GPU_MEMORY_BANDWIDTH_UTILIZATION, 0.4));
    }

    @Test
    void should_sum_amounts_and_average_fractions_over_two_engines() {
        ScrapeReading reading = reduce("""
                vllm:num_requests_running{engine="0"} 10
                vllm:num_requests_running{engine="1"} 6
                vllm:kv_cache_usage_perc{engine="0"} 0.9
                vllm:kv_cache_usage_perc{engine="1"} 0.5
                vllm:prompt_tokens_total{engine="0"} 100
                vllm:prompt_tokens_total{engine="1"} 50
                vllm:e2e_request_latency_seconds_bucket{engine="0",le="1.0"} 3
                vllm:e2e_request_latency_seconds_bucket{engine="0",le="+Inf"} 4
                vllm:e2e_request_latency_seconds_sum{engine="0"} 5.0
                vllm:e2e_request_latency_seconds_count{engine="0"} 4
                vllm:e2e_request_latency_seconds_bucket{engine="1",le="1.0"} 1
                vllm:e2e_request_latency_seconds_bucket{engine="1",le="+Inf"} 6
                vllm:e2e_request_latency_seconds_sum{engine="1"} 9.0
                vllm:e2e_request_latency_seconds_count{engine="1"} 6
                """);
        assertThat(reading.values().get(RUNNING_REQUESTS)).isEqualTo(16.0);
        assertThat(reading.values().get(KV_CACHE_USAGE)).isCloseTo(0.7, within(1e-12));
        assertThat(reading.values().get(PROMPT_TOKENS)).isEqualTo(150.0);
        assertThat(reading.histograms().get(SERVER_E2E))
                .isEqualTo(new Buckets(new double[] {1.0, Double.POSITIVE_INFINITY}, new double[] {4, 10}, 14, 10));
    }

    @Test
    void should_merge_series_with_different_bounds_over_the_union_of_bounds() {
        ScrapeReading reading = reduce("""
                vllm:e2e_request_latency_seconds_bucket{engine="0",le="1.0"} 3
                vllm:e2e_request_latency_seconds_bucket{engine="0",le="+Inf"} 4
                vllm:e2e_request_latency_seconds_count{engine="0"} 4
                vllm:e2e_request_latency_seconds_bucket{engine="1",le="2.0"} 5
                vllm:e2e_request_latency_seconds_count{engine="1"} 6
                """);
        // At 2.0, engine 0 counts what it had by 1.0; at 1.0, engine 1 counts nothing yet; +Inf takes the counts.
        assertThat(reading.histograms().get(SERVER_E2E))
                .isEqualTo(
                        new Buckets(new double[] {1.0, 2.0, Double.POSITIVE_INFINITY}, new double[] {3, 8, 10}, 0, 10));
    }

    @Test
    void should_prefer_the_current_name_when_both_names_are_present() {
        ScrapeReading reading = reduce("""
                vllm:gpu_cache_usage_perc{engine="0"} 0.2
                vllm:kv_cache_usage_perc{engine="0"} 0.3
                vllm:gpu_prefix_cache_queries_total{engine="0"} 1000
                vllm:prefix_cache_queries_total{engine="0"} 1200
                vllm:time_per_output_token_seconds_bucket{engine="0",le="+Inf"} 7
                vllm:time_per_output_token_seconds_count{engine="0"} 7
                vllm:inter_token_latency_seconds_bucket{engine="0",le="+Inf"} 9
                vllm:inter_token_latency_seconds_count{engine="0"} 9
                """);
        assertThat(reading.values()).containsOnly(entry(KV_CACHE_USAGE, 0.3), entry(PREFIX_CACHE_QUERIES, 1200.0));
        assertThat(reading.histograms().get(SERVER_ITL).count()).isEqualTo(9);
        // The deprecated duplicates have a meaning, so they are not reported as unmapped either.
        assertThat(reading.unmapped()).isEmpty();
    }

    @Test
    void should_read_counters_written_without_total_and_leave_out_nan_gauges() {
        ScrapeReading reading = reduce("""
                vllm:generation_tokens{engine="0"} 42
                vllm:kv_cache_usage_perc{engine="0"} NaN
                vllm:num_requests_waiting{engine="0"} NaN
                vllm:num_requests_waiting{engine="1"} 2
                """);
        assertThat(reading.values()).containsOnly(entry(GENERATION_TOKENS, 42.0), entry(WAITING_REQUESTS, 2.0));
        assertThat(reading.value(KV_CACHE_USAGE)).isEmpty();
    }

    @Test
    void should_return_unmodifiable_collections() {
        ScrapeReading reading = reduce("up 1\n");
        assertThat(reading.unmapped()).containsExactly(new Sample("up", Map.of(), 1));
        assertThat(reading.values()).isEmpty();
        assertThat(reading.histograms()).isUnmodifiable();
        assertThat(reading.values()).isUnmodifiable();
    }
}
