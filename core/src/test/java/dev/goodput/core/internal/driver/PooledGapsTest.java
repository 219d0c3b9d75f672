package dev.goodput.core.internal.driver;

import static dev.goodput.core.testing.SseText.DONE;
import static dev.goodput.core.testing.SseText.contentChunkWithUsage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.Phase;
import dev.goodput.core.RequestSpec;
import dev.goodput.core.internal.client.InFlightRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PooledGapsTest {

    private static final long MS = 1_000_000;

    @Test
    void should_record_one_icl_sample_per_gap_and_spread_itl_over_the_tokens_of_the_later_event() {
        InFlightRequest request =
                new InFlightRequest(0, Phase.MEASURED, RequestSpec.completion("x", 8), 0, true, null, r -> {});
        request.markDispatched(0, false);
        request.onHeaders(200, "text/event-stream", MS);
        feed(request, 100, contentChunkWithUsage(" a", null, 1, 1));
        feed(request, 130, contentChunkWithUsage(" b c d", null, 1, 4)); // 30 ms gap, 3 tokens
        feed(request, 150, contentChunkWithUsage(" e", "length", 1, 5) + DONE); // 20 ms gap, 1 token

        PooledGaps gaps = new PooledGaps();
        gaps.record(request);
        Histogram icl = gaps.icl();
        Histogram itl = gaps.itl();

        assertThat(icl.getTotalCount()).isEqualTo(2);
        assertThat(icl.getCountAtValue(30 * MS)).isEqualTo(1);
        assertThat(icl.getCountAtValue(20 * MS)).isEqualTo(1);
        assertThat(itl.getTotalCount()).isEqualTo(4);
        assertThat(itl.getCountAtValue(10 * MS)).isEqualTo(3);
        assertThat(itl.getCountAtValue(20 * MS)).isEqualTo(1);
    }

    private static void feed(InFlightRequest request, long millis, String text) {
        request.onBytes(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)), millis * MS);
    }
}
