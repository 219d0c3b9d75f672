package dev.goodput.core.result.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.goodput.core.result.RunResult;
import dev.goodput.core.servermetrics.Deployment;
import dev.goodput.core.servermetrics.ServerMetricsResult;
import dev.goodput.core.servermetrics.internal.Buckets;
import dev.goodput.core.servermetrics.internal.ScrapeLog;
import dev.goodput.core.servermetrics.internal.ScrapeReading;
import dev.goodput.core.servermetrics.internal.ServerSignal;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.slo.SloSpec;
import dev.goodput.core.slo.Verdict;
import dev.goodput.core.testing.SampleResults;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The per-run figures, the cost and the bandwidth check, on hand-built scrapes and the sample records. */
class ServerMetricsSummarizerTest {

    private static final long SECOND = 1_000_000_000L;
    private static final RunResult RUN = SampleResults.compute(List.of());

    private static ScrapeLog log(List<Map<ServerSignal, Double>> ticks) {
        ScrapeLog log = new ScrapeLog(List.of("http://127.0.0.1:1/metrics"), 100);
        for (int i = 0; i < ticks.size(); i++) {
            log.record(
                    i * SECOND,
                    Map.of("http://127.0.0.1:1/metrics", new ScrapeReading(ticks.get(i), Map.of(), List.of())));
        }
        return log;
    }

    @Test
    void should_take_the_prefix_hit_rate_from_the_counters_increase_over_the_run() {
        ScrapeLog log = log(List.of(
                Map.of(ServerSignal.PREFIX_CACHE_QUERIES, 1000.0, ServerSignal.PREFIX_CACHE_HITS, 900.0),
                Map.of(ServerSignal.PREFIX_CACHE_QUERIES, 3000.0, ServerSignal.PREFIX_CACHE_HITS, 1400.0)));

        // Before the run 90 % hit; during it 500 of 2,000 queried tokens did.
        assertThat(ServerMetricsSummarizer.figures(log, RUN, Deployment.UNSTATED)
                        .prefixCacheHitRate())
                .isEqualTo(0.25);
    }

    @Test
    void should_take_prompt_tokens_as_the_queries_of_a_server_that_counts_only_cached_tokens() {
        ScrapeLog log = log(List.of(
                Map.of(ServerSignal.PREFIX_CACHE_HITS, 0.0, ServerSignal.PROMPT_TOKENS, 0.0),
                Map.of(
                        ServerSignal.PREFIX_CACHE_HITS,
                        300.0,
                        ServerSignal.PROMPT_TOKENS,
                        400.0,
                        ServerSignal.PREFIX_CACHE_HIT_RATE,
                        0.1)));

        assertThat(ServerMetricsSummarizer.figures(log, RUN, Deployment.UNSTATED)
                        .prefixCacheHitRate())
                .isEqualTo(0.75);
    }

    @Test
    void should_fall_back_to_the_servers_own_hit_rate_gauge() {
        ScrapeLog log = log(List.of(
                Map.of(ServerSignal.PREFIX_CACHE_HIT_RATE, 0.4), Map.of(ServerSignal.PREFIX_CACHE_HIT_RATE, 0.6)));

        assertThat(ServerMetricsSummarizer.figures(log, RUN, Deployment.UNSTATED)
                        .prefixCacheHitRate())
                .isCloseTo(0.5, within(1e-12));
    }

    @Test
    void should_prefer_an_energy_counter_to_integrated_power_and_divide_by_the_servers_generated_tokens() {
        ScrapeLog counted = log(List.of(
                Map.of(
                        ServerSignal.GPU_ENERGY,
                        1000.0,
                        ServerSignal.GPU_POWER,
                        100.0,
                        ServerSignal.GENERATION_TOKENS,
                        0.0),
                Map.of(
                        ServerSignal.GPU_ENERGY,
                        1600.0,
                        ServerSignal.GPU_POWER,
                        500.0,
                        ServerSignal.GENERATION_TOKENS,
                        1200.0)));
        ScrapeLog powerOnly = log(List.of(
                Map.of(ServerSignal.GPU_POWER, 100.0, ServerSignal.GENERATION_TOKENS, 0.0),
                Map.of(ServerSignal.GPU_POWER, 500.0, ServerSignal.GENERATION_TOKENS, 1200.0)));

        ServerMetricsResult.Figures fromCounter = ServerMetricsSummarizer.figures(counted, RUN, Deployment.UNSTATED);
        ServerMetricsResult.Figures fromPower = ServerMetricsSummarizer.figures(powerOnly, RUN, Deployment.UNSTATED);
        assertThat(fromCounter.energyJoules()).isEqualTo(600);
        assertThat(fromCounter.energyPerOutputToken()).isEqualTo(0.5);
        assertThat(fromPower.energyJoules()).isEqualTo(300); // (100 + 500) / 2 W over 1 s
        assertThat(fromPower.energyPerOutputToken()).isEqualTo(0.25);
        assertThat(fromPower.meanPowerWatts()).isEqualTo(300);
    }

    @Test
    void should_cost_the_measured_good_tokens_at_the_stated_price_over_the_window() {
        // The sample's measured successes carry 5 + 3 + 1 + 9 output tokens.
        Deployment twoGpus = Deployment.of("L4", 2).withPricePerGpuHour(3.6);
        double window = RUN.load().windowSeconds();

        double cost = ServerMetricsSummarizer.cost(RUN, twoGpus);

        assertThat(cost).isCloseTo(3.6 * 2 * window / 3600 / (18 / 1e6), within(1e-6));
        assertThat(ServerMetricsSummarizer.cost(RUN, Deployment.of("L4", 2))).isNaN();
        RunResult noneGood = SampleResults.compute(
                List.of(SloSpec.of(Metric.TTFT).percentile(50).atMost(1e6)));
        assertThat(ServerMetricsSummarizer.cost(noneGood, twoGpus)).isInfinite();
    }

    @Test
    void should_read_the_bandwidth_check_against_the_median_tpot() {
        // The sample's median TPOT is 50 ms; 1e9 one-byte weights take 25 ms at 40 GB/s.
        Deployment model = new Deployment("", 1, Double.NaN, 40, 1e9, 1);

        var bound = ServerMetricsSummarizer.bandwidth(RUN, model, 1).orElseThrow();
        var slow = ServerMetricsSummarizer.bandwidth(RUN, model.withMemoryBandwidthGBps(50), 1)
                .orElseThrow();
        var tooFast = ServerMetricsSummarizer.bandwidth(RUN, model.withMemoryBandwidthGBps(10), 1)
                .orElseThrow();
        var batched = ServerMetricsSummarizer.bandwidth(RUN, model, 6).orElseThrow();

        assertThat(bound.predictedStepSeconds()).isCloseTo(0.025, within(1e-15));
        assertThat(bound.ratio()).isCloseTo(2.0, within(1e-9));
        assertThat(bound.reading())
                .startsWith("decode looks memory-bound: 2.00×")
                .contains("50 % of the memory bandwidth");
        assertThat(slow.reading()).startsWith("decode took 2.5× the bandwidth floor: something else is in the way");
        assertThat(tooFast.reading()).startsWith("decode ran 0.50× the bandwidth floor");
        assertThat(batched.reading())
                .endsWith("the mean batch was 6.0 and the floor holds at batch 1, so judge it at the lowest load");
        assertThat(ServerMetricsSummarizer.bandwidth(RUN, Deployment.of("H100-SXM", 1), 1))
                .isEmpty();
    }

    @Test
    void should_judge_server_objectives_on_the_figures_and_say_why_one_is_missing() {
        ScrapeLog log = log(List.of(
                Map.of(ServerSignal.PREEMPTIONS, 3.0, ServerSignal.KV_CACHE_USAGE, 0.5),
                Map.of(ServerSignal.PREEMPTIONS, 7.0, ServerSignal.KV_CACHE_USAGE, 0.97)));
        RunResult run = SampleResults.compute(List.of(
                SloSpec.of(Metric.PREEMPTIONS).atMost(0),
                SloSpec.of(Metric.PEAK_KV_CACHE_USAGE).atMost(0.98),
                SloSpec.of(Metric.ENERGY_PER_OUTPUT_TOKEN).atMost(1),
                SloSpec.of(Metric.ERROR_RATE).atMost(1)));

        RunResult judged = ServerObjectives.apply(
                run, ServerMetricsSummarizer.summarize(log, run, Deployment.UNSTATED), Deployment.UNSTATED);

        assertThat(judged.verdicts())
                .extracting(v -> v.verdict())
                .containsExactly(Verdict.VIOLATED, Verdict.MET, Verdict.INCONCLUSIVE, Verdict.MET);
        assertThat(judged.verdicts().get(0).describe())
                .startsWith("preemptions: measured 4 (n=5), bound ≤ 0: VIOLATED");
        assertThat(judged.verdicts().get(2).reason()).startsWith("no GPU power or energy series in");
        assertThat(judged.value(Metric.PREEMPTIONS)).isEqualTo(4);
        assertThat(judged.value(Metric.ENERGY_PER_OUTPUT_TOKEN)).isNaN();
        assertThat(judged.serverMetrics().facts())
                .containsExactly("KV cache peaked at 97 % and 4 requests were preempted");
    }

    @Test
    void should_show_a_server_histograms_percentiles_as_the_buckets_that_hold_them() throws Exception {
        // The run of issue 33: vLLM's queue-time buckets start at 0.3 s, every one of 40 requests waited there
        // and the mean was 4.15 ms. Interpolating inside the first bucket read 150 ms at p50 and 297 ms at p99.
        double[] bounds = {0.3, 0.5, 0.8, Double.POSITIVE_INFINITY};
        Buckets before = new Buckets(bounds, new double[] {0, 0, 0, 0}, 0, 0);
        Buckets after = new Buckets(bounds, new double[] {40, 40, 40, 40}, 40 * 0.00415, 40);
        ScrapeLog log = new ScrapeLog(List.of("http://127.0.0.1:1/metrics"), 100);
        log.record(
                0,
                Map.of(
                        "http://127.0.0.1:1/metrics",
                        new ScrapeReading(
                                Map.of(ServerSignal.WAITING_REQUESTS, 0.0),
                                Map.of(ServerSignal.SERVER_QUEUE_TIME, before),
                                List.of())));
        log.record(
                SECOND,
                Map.of(
                        "http://127.0.0.1:1/metrics",
                        new ScrapeReading(
                                Map.of(ServerSignal.WAITING_REQUESTS, 1.0),
                                Map.of(ServerSignal.SERVER_QUEUE_TIME, after),
                                List.of())));

        ServerMetricsResult view = ServerMetricsSummarizer.summarize(log, RUN, Deployment.UNSTATED);

        ServerMetricsResult.Distribution queue = view.distributions().get(0);
        assertThat(queue.key()).isEqualTo("server_queue_time");
        assertThat(queue.meanNanos()).isCloseTo(4.15e6, within(1.0));
        assertThat(List.of(queue.p50(), queue.p90(), queue.p99()))
                .containsOnly(new ServerMetricsResult.Bucketed(0, 300e6));
        assertThat(queue.p99().describe()).isEqualTo("≤ 300 ms");
        assertThat(view.facts())
                .contains("up to 1 request waited in the server's queue (mean 0.5), waiting 4.2 ms on average"
                        + " and ≤ 300 ms at p99");

        RunResult withView = RUN.withServerMetrics(view, Map.of(), RUN.verdicts());
        assertThat(dev.goodput.core.report.internal.ServerMetricsSection.html(withView))
                .contains("<td>≤ 300 ms</td><td>≤ 300 ms</td><td>≤ 300 ms</td>")
                .doesNotContain("150.00 ms", "297");
        java.io.ByteArrayOutputStream json = new java.io.ByteArrayOutputStream();
        dev.goodput.core.report.JsonReport.write(withView, json);
        var distribution = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(json.toByteArray())
                .at("/server_metrics/distributions/0");
        assertThat(distribution.at("/p99/above_ms").asDouble()).isEqualTo(0.0);
        assertThat(distribution.at("/p99/at_most_ms").asDouble()).isEqualTo(300.0);
        assertThat(distribution.has("p99_ms")).isFalse();
    }

    @Test
    void should_say_a_percentile_past_the_last_bound_is_only_known_to_lie_above_it() {
        Buckets slow = new Buckets(
                new double[] {0.25, 0.5, 1.0, Double.POSITIVE_INFINITY}, new double[] {10, 60, 90, 100}, 60, 100);

        assertThat(slow.bucketOf(0.5)).contains(new Buckets.Bucket(0.25, 0.5));
        assertThat(slow.bucketOf(0.05)).contains(new Buckets.Bucket(0, 0.25));
        assertThat(slow.bucketOf(0.99)).contains(new Buckets.Bucket(1.0, Double.POSITIVE_INFINITY));
        assertThat(new ServerMetricsResult.Bucketed(250e6, 500e6).describe()).isEqualTo("250 .. 500 ms");
        assertThat(new ServerMetricsResult.Bucketed(1e9, Double.POSITIVE_INFINITY).describe())
                .isEqualTo("> 1000 ms");
    }
}
