package dev.goodput.mock.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.mock.ModelPredictions;
import dev.goodput.mock.PerformanceModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The KV cache's effects: prefix reuse, chunked-prefill interference and preemption. */
class CacheBehaviourTest {

    private static final long MS = 1_000_000;
    private static final long SECOND = 1_000 * MS;
    private static final PerformanceModel H100 = PerformanceModel.preset("h100-llama3-8b");

    private static Generation prompt(String id, long arrival, long[] tokens, int maxTokens) {
        return new Generation(id, arrival, tokens, maxTokens, 0, true, 0);
    }

    @Test
    @DisplayName("A warm prefix (shared leading blocks) cuts TTFT against a cold prompt of the same length")
    void warmPrefixCutsTtft() {
        VirtualTimeRun run = new VirtualTimeRun(H100);
        run.submit(prompt("seed", 0, Generations.sharedPrefixPrompt("seed", 4000, 4096), 4));
        RecordingSink warm = run.submit(prompt("warm", SECOND, Generations.sharedPrefixPrompt("warm", 4000, 4096), 4));
        RecordingSink cold = run.submit(prompt("cold", 2 * SECOND, Generations.distinctPrompt("cold", 4096), 4));
        run.runToCompletion();

        long warmTtft = warm.firstTokenNanos() - SECOND;
        long coldTtft = cold.firstTokenNanos() - 2 * SECOND;
        assertThat(warmTtft).isLessThan(coldTtft / 5);
        EngineSnapshot snapshot = run.scheduler.snapshot();
        assertThat(snapshot.prefixCacheQueries()).isEqualTo(3 * 4096);
        // 4,000 shared tokens are 250 full blocks of 16.
        assertThat(snapshot.prefixCacheHits()).isEqualTo(250 * 16);
    }

    @Test
    @DisplayName("An identical prompt reuses every full block but still computes its last token")
    void identicalPromptStillComputesOneToken() {
        VirtualTimeRun run = new VirtualTimeRun(H100);
        long[] tokens = Generations.distinctPrompt("same", 1024);
        run.submit(prompt("a", 0, tokens, 2));
        RecordingSink again = run.submit(prompt("b", SECOND, tokens, 2));
        run.runToCompletion();
        assertThat(run.scheduler.snapshot().prefixCacheHits()).isEqualTo(1008);
        // Its first token costs about one decode-sized step instead of a 1,024-token prefill.
        assertThat(again.firstTokenNanos() - SECOND)
                .isLessThan(ModelPredictions.of(H100).prefillNanos(1024) / 4);
    }

    @Test
    @DisplayName("Cached blocks survive their request and are evicted least-recently-used when space runs out")
    void freedBlocksStayCachedUntilEvicted() {
        PerformanceModel tiny = PerformanceModel.preset("tiny-test"); // 4,096 tokens of KV: 256 blocks
        VirtualTimeRun run = new VirtualTimeRun(tiny);
        long[] oldest = Generations.distinctPrompt("oldest", 1024);
        long[] newest = Generations.distinctPrompt("newest", 1024);
        // Five 1,024-token prompts, one after another, need 5 x 65 blocks: the oldest one's blocks are evicted.
        run.submit(prompt("oldest", 0, oldest, 2));
        for (int i = 0; i < 3; i++) {
            run.submit(prompt("middle" + i, (i + 1) * SECOND, Generations.distinctPrompt("m" + i, 1024), 2));
        }
        run.submit(prompt("newest", 4 * SECOND, newest, 2));
        run.runUntil(9 * SECOND);
        assertThat(run.scheduler.snapshot().prefixCacheHits()).isZero();

        run.submit(prompt("oldest-again", 10 * SECOND, oldest, 2));
        run.runUntil(11 * SECOND);
        assertThat(run.scheduler.snapshot().prefixCacheHits()).as("evicted").isZero();

        run.submit(prompt("newest-again", 12 * SECOND, newest, 2));
        run.runToCompletion();
        // Still cached although its request finished long ago: 63 full blocks (the last token is recomputed).
        assertThat(run.scheduler.snapshot().prefixCacheHits())
                .as("still cached")
                .isEqualTo(1008);
        assertThat(run.scheduler.snapshot().kvCacheUsage()).isZero();
    }

    @Test
    @DisplayName("A long prompt's chunked prefill makes the steps it shares with running decodes much longer")
    void chunkedPrefillStallsRunningDecodes() {
        VirtualTimeRun run = new VirtualTimeRun(H100);
        List<RecordingSink> decoders = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            decoders.add(run.submit(Generations.ignoringEos("d" + i, 0, 128, 400)));
        }
        run.submit(Generations.ignoringEos("long", SECOND, 8000, 10));
        run.runToCompletion();

        StepPlan stall = run.steps.stream()
                .filter(step -> step.prefillTokens() > 4000 && step.decodeSequences() > 0)
                .findFirst()
                .orElseThrow();
        assertThat(stall.decodeSequences()).isEqualTo(64);
        long typicalDecode = run.steps.get(run.steps.size() / 4).durationNanos();
        assertThat(stall.durationNanos()).isGreaterThan(8 * typicalDecode);
        // Every running sequence sees that stall as one long inter-token gap.
        RecordingSink decoder = decoders.get(0);
        long longestGap = 0;
        for (int i = 1; i < decoder.emissions.size(); i++) {
            long gap = decoder.emissions.get(i).intendedNanos()
                    - decoder.emissions.get(i - 1).intendedNanos();
            longestGap = Math.max(longestGap, gap);
        }
        assertThat(longestGap).isEqualTo(stall.durationNanos());
    }

    @Test
    @DisplayName("When the KV cache runs out, running sequences are preempted and recomputed, losing no tokens")
    void preemptionWhenTheCacheRunsOut() {
        PerformanceModel tiny = PerformanceModel.preset("tiny-test"); // 8 sequences, 4,096 tokens of KV
        VirtualTimeRun run = new VirtualTimeRun(tiny);
        List<RecordingSink> sinks = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            // 8 x (256 + 400) = 5,248 tokens at the end: more than the cache holds.
            sinks.add(run.submit(Generations.ignoringEos("r" + i, 0, 256, 400)));
        }
        run.runUntil(5 * SECOND);
        EngineSnapshot midway = run.scheduler.snapshot();
        run.runToCompletion();

        assertThat(run.scheduler.snapshot().preemptions()).isGreaterThan(0);
        assertThat(midway.kvCacheUsage()).isGreaterThan(0.9);
        for (RecordingSink sink : sinks) {
            assertThat(sink.finishReason).isEqualTo("length");
            int expectedIndex = 0;
            for (RecordingSink.Emission emission : sink.emissions) {
                assertThat(emission.firstTokenIndex()).isEqualTo(expectedIndex);
                expectedIndex += emission.count();
            }
            assertThat(expectedIndex).isEqualTo(400);
        }
        assertThat(run.scheduler.snapshot().kvCacheUsage()).isZero();
    }

    @Test
    @DisplayName("A cancelled generation is dropped at the next step boundary and frees its slot and blocks")
    void cancelledGenerationsAreDropped() {
        PerformanceModel tiny = PerformanceModel.preset("tiny-test").withMaxNumSeqs(1);
        VirtualTimeRun run = new VirtualTimeRun(tiny);
        RecordingSink cancelled = run.submit(Generations.ignoringEos("gone", 0, 100, 1000));
        RecordingSink next = run.submit(Generations.ignoringEos("next", 0, 100, 5));
        run.runUntil(200 * MS);
        assertThat(next.emissions).isEmpty();
        cancelled.cancelled = true;
        run.runToCompletion();
        assertThat(cancelled.finishReason).isEqualTo("abort");
        assertThat(cancelled.tokens()).isLessThan(1000);
        assertThat(next.finishReason).isEqualTo("length");
        assertThat(next.firstTokenNanos()).isGreaterThan(cancelled.finishNanos);
    }

    @Test
    @DisplayName("A prompt at or beyond the model's maximum length is aborted instead of blocking the queue")
    void overlongPromptIsAborted() {
        VirtualTimeRun run = new VirtualTimeRun(PerformanceModel.preset("tiny-test")); // max model length 2,048
        RecordingSink overlong = run.submit(Generations.ignoringEos("big", 0, 5000, 10));
        RecordingSink behind = run.submit(Generations.ignoringEos("small", 0, 10, 3));
        run.runToCompletion();
        assertThat(overlong.finishReason).isEqualTo("abort");
        assertThat(overlong.emissions).isEmpty();
        assertThat(behind.finishReason).isEqualTo("length");
    }
}
