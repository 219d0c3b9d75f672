package dev.goodput.realserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.slo.Metric;
import dev.goodput.core.workload.LengthDistribution;
import dev.goodput.core.workload.PrefixPolicy;
import dev.goodput.core.workload.PromptTokenizer;
import dev.goodput.core.workload.RandomWorkload;
import dev.goodput.core.workload.RequestSpec;
import dev.goodput.core.workload.WorkloadSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's prompt cache seen from both sides: prompts sharing a long prefix, one slot, the cache on (llama.cpp's
 * default) and off ({@code "cache_prompt": false}). With it on the engine reuses the prefix ({@code cache_n}) and
 * evaluates only the rest, and Goodput's TTFT is shorter.
 */
@RequiresLlamaServer
class LlamaCppPrefixCacheTest {

    private static final int PREFIX_TOKENS = 768;
    private static final int INPUT_TOKENS = 896;
    private static final LlamaServer SERVER = LlamaServer.withSlots(1, 4096);

    @BeforeAll
    static void start() {
        SERVER.start();
    }

    @AfterAll
    static void stop() {
        SERVER.stop();
    }

    @Test
    void should_show_the_prefix_cache_in_the_engines_counts_and_in_ttft() {
        RunResult cached = run(true);
        RunResult uncached = run(false);

        assertThat(measured(cached))
                .allSatisfy(record -> assertThat(record.serverTimings().cachedPromptTokens())
                        .as("prompt tokens the engine took from its cache")
                        .isGreaterThanOrEqualTo(PREFIX_TOKENS - 8));
        assertThat(measured(uncached)).allSatisfy(record -> {
            assertThat(record.serverTimings().cachedPromptTokens()).isLessThanOrEqualTo(0);
            assertThat(record.serverTimings().promptTokens()).isEqualTo(record.serverPromptTokens());
        });
        double cachedTtft = cached.summary(Metric.TTFT).percentile(50);
        double uncachedTtft = uncached.summary(Metric.TTFT).percentile(50);
        System.out.printf(
                "[prefix-cache] median TTFT %.1f ms with the cache, %.1f ms without%n",
                cachedTtft / 1e6, uncachedTtft / 1e6);
        assertThat(cachedTtft).as("median TTFT with the cache").isLessThan(uncachedTtft);
    }

    private static RunResult run(boolean cachePrompt) {
        WorkloadSpec base = RandomWorkload.builder()
                .inputTokens(LengthDistribution.fixed(INPUT_TOKENS))
                .outputTokens(LengthDistribution.fixed(4))
                .tokenizer(PromptTokenizer.huggingFace(LlamaServer.tokenizerFile()))
                .prefix(PrefixPolicy.warm(PREFIX_TOKENS, 1))
                .build();
        RunResult result = Goodput.newRun(SERVER.serverEndpoint())
                .workload(new WithBodyField(base, "cache_prompt", cachePrompt))
                .load(Load.concurrency(1).requests(26).warmupRequests(2))
                .run();
        assertThat(result.accounting().count(Outcome.SUCCESS))
                .as("every request succeeds: %s", result.failures())
                .isEqualTo(26);
        return result;
    }

    private static List<RequestRecord> measured(RunResult result) {
        return result.records().stream()
                .filter(record -> record.phase() == Phase.MEASURED)
                .toList();
    }

    /** A workload whose requests carry one more body field. */
    private record WithBodyField(WorkloadSpec base, String name, Object value) implements WorkloadSpec {
        @Override
        public RequestSpec request(long index) {
            RequestSpec spec = base.request(index);
            Map<String, Object> body = new LinkedHashMap<>(spec.extraBody());
            body.put(name, value);
            return spec.withExtraBody(body);
        }

        @Override
        public Map<String, Object> describe() {
            Map<String, Object> description = new LinkedHashMap<>(base.describe());
            description.put(name, value);
            return description;
        }
    }
}
