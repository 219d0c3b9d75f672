package dev.goodput.examples;

import static dev.goodput.core.slo.Metric.TTFT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.junit.GoodputTest;
import dev.goodput.junit.LoadProfile;
import dev.goodput.junit.ServerVariant;
import dev.goodput.junit.ServerVariants;
import dev.goodput.junit.Slo;
import dev.goodput.junit.VariantResults;
import dev.goodput.junit.Workload;
import dev.goodput.mock.PerformanceModel;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A tuning decision record: one gate run against the simulated server with vLLM's {@code --max-num-seqs} at 2, 4
 * and 8, the table and chart of {@code variants.html} saying which setting met the objective and with how much
 * goodput. Twelve users on 2 slots wait for a slot before their first token (p50 TTFT measured about 0.92 s, at
 * 8.6 requests/s); on 8 slots they hardly wait (about 55 ms, at 31 requests/s). About 10 s in all.
 */
@GoodputTest
class SimulatedServerVariantsExample {

    // tag::server-variants[]
    static Stream<ServerVariant> maxNumSeqs() {
        PerformanceModel model = PerformanceModel.preset("tiny-test");
        return Stream.of(2, 4, 8)
                .map(seqs -> ServerVariant.simulated("max-num-seqs " + seqs, model.withMaxNumSeqs(seqs)));
    }

    @Test
    @ServerVariants(value = "maxNumSeqs", require = ServerVariants.Require.ANY)
    @Workload(inputTokens = 64, outputTokens = 16, seed = 2)
    @LoadProfile(concurrency = 12, requests = 48, warmupRequests = 12)
    @Slo(metric = TTFT, percentile = 90, atMost = 600)
    void some_batch_size_answers_twelve_users_within_600_ms(VariantResults variants) {
        assertThat(variants.best()).contains("max-num-seqs 8");
        assertThat(variants.get("max-num-seqs 8").goodput())
                .isGreaterThan(variants.get("max-num-seqs 2").goodput());
    }
    // end::server-variants[]
}
