package dev.goodput.core.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Goodput;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.Outcome;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.result.RunResult;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.ModelPredictions;
import dev.goodput.mock.PerformanceModel;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Against the simulated server (H100 + Llama-3-8B model, prefix cache in 16-token blocks, one request at a
 * time): a warm shared prefix cuts TTFT to the prefill of the uncached tail, as the model's own cost function
 * predicts; a cold run pays the whole prefill every time.
 */
class PrefixCacheRunTest {

    private static final int PROMPT = 2048;
    private static final int PREFIX = 1984; // 124 blocks of 16 tokens

    @Test
    void should_cut_ttft_to_the_uncached_tail_with_a_warm_prefix_and_not_with_a_cold_one() throws Exception {
        PerformanceModel model = PerformanceModel.defaultModel();
        double predictedColdMs = ModelPredictions.of(model).prefillNanos(PROMPT) / 1e6;
        double predictedWarmMs = ModelPredictions.of(model).stepNanos(0, 0, PROMPT - PREFIX, PREFIX) / 1e6;
        try (MockServer server = MockServer.start(MockServerConfig.defaults().withPerformanceModel(model))) {
            ServerEndpoint endpoint = ServerEndpoint.of(server.baseUrl(), server.modelName());
            double warmMs = medianTtftMs(endpoint, PrefixPolicy.warm(PREFIX, 1));
            double coldMs = medianTtftMs(endpoint, PrefixPolicy.cold());
            System.out.printf(
                    Locale.ROOT,
                    "TTFT median: cold %.1f ms (predicted %.1f), warm %.1f ms (predicted %.1f)%n",
                    coldMs,
                    predictedColdMs,
                    warmMs,
                    predictedWarmMs);
            // Above the prediction by HTTP and scheduling overhead only; generous for a busy machine.
            assertThat(coldMs).isBetween(predictedColdMs, predictedColdMs + 25);
            assertThat(warmMs).isBetween(predictedWarmMs, predictedWarmMs + 25);
            assertThat(warmMs).isLessThan(coldMs / 3);
        }
    }

    private static double medianTtftMs(ServerEndpoint endpoint, PrefixPolicy prefix) {
        RandomWorkload workload = RandomWorkload.builder()
                .inputTokens(LengthDistribution.fixed(PROMPT))
                .outputTokens(LengthDistribution.fixed(2))
                .prefix(prefix)
                .shape(new RequestShape(ApiKind.COMPLETIONS, true, 0, Map.of()))
                .seed(7)
                .build();
        // The first request fills the cache for a warm run; it is warm-up either way.
        RunResult result =
                Goodput.run(endpoint, workload, Load.concurrency(1).requests(11).warmupRequests(1));
        assertThat(result.accounting().count(Outcome.SUCCESS)).isEqualTo(11);
        assertThat(result.spec().workload().describe()).containsEntry("prefix", prefix.describe());
        long[] ttfts = result.records().stream()
                .skip(1)
                .mapToLong(RequestRecord::ttftFromSendNanos)
                .sorted()
                .toArray();
        return ttfts[ttfts.length / 2] / 1e6;
    }
}
