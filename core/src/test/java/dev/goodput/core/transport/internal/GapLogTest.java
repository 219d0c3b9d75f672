package dev.goodput.core.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.testing.DirectRequests;
import dev.goodput.core.workload.RequestSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GapLogTest {

    private static List<long[]> gaps(GapLog log) {
        MeasuredAttempt attempt = new DirectRequests().send(0, RequestSpec.completion("x", 4), 0);
        attempt.onHeaders(500, "application/json", 1);
        attempt.onEndOfStream(2);
        List<long[]> seen = new ArrayList<>();
        log.finish(attempt.request().record(), false, 4, null)
                .forEachGap((gapNanos, tokens) -> seen.add(new long[] {gapNanos, tokens}));
        return seen;
    }

    @Test
    void should_count_one_token_per_gap_while_no_event_carried_more() {
        GapLog log = new GapLog();
        for (int i = 0; i < 40; i++) {
            log.add(1_000 + i, 1);
        }
        List<long[]> seen = gaps(log);
        assertThat(seen).hasSize(40);
        assertThat(seen).allSatisfy(gap -> assertThat(gap[1]).isEqualTo(1));
        assertThat(seen.get(39)[0]).isEqualTo(1_039);
    }

    @Test
    void should_keep_every_count_once_an_event_carries_several_tokens_even_after_growing() {
        GapLog log = new GapLog();
        for (int i = 0; i < 20; i++) {
            log.add(i, 1);
        }
        log.add(20, 3); // the first multi-token event, after the arrays grew once
        for (int i = 21; i < 40; i++) {
            log.add(i, i % 2 == 0 ? 2 : 1);
        }
        List<long[]> seen = gaps(log);
        assertThat(seen).hasSize(40);
        for (int i = 0; i < 40; i++) {
            long expected = i < 20 ? 1 : i == 20 ? 3 : i % 2 == 0 ? 2 : 1;
            assertThat(seen.get(i)).as("gap %d", i).containsExactly(i, expected);
        }
    }
}
