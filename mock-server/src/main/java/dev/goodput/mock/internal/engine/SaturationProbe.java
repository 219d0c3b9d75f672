package dev.goodput.mock.internal.engine;

import dev.goodput.mock.PerformanceModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;

/**
 * Measures a model's saturation throughput by running its scheduler on virtual time: a backlog of identical
 * requests (several times what the engine can hold at once) is served, and the completion rate is read over the
 * middle half of the completions, away from the ramp-up and the drain. Exact for the model, since it runs the
 * very scheduler the real-time engine runs.
 */
public final class SaturationProbe {

    private SaturationProbe() {}

    /** Returns how many requests of this shape run at once: slots or KV cache, whichever runs out first. */
    public static int maxConcurrentSequences(PerformanceModel model, int promptTokens, int outputTokens) {
        requireShape(model, promptTokens, outputTokens);
        if (model.mode() == PerformanceModel.Mode.FIXED) {
            return Integer.MAX_VALUE;
        }
        long blocksPerSequence = (promptTokens + outputTokens + model.blockSize() - 1) / model.blockSize();
        long byCache = model.kvCacheTokens() / model.blockSize() / Math.max(1, blocksPerSequence);
        return (int) Math.max(1, Math.min(model.maxNumSeqs(), byCache));
    }

    /** Returns the completed requests per second of a saturated engine serving requests of this shape. */
    public static double requestsPerSecond(PerformanceModel model, int promptTokens, int outputTokens) {
        requireShape(model, promptTokens, outputTokens);
        if (model.mode() == PerformanceModel.Mode.FIXED) {
            return Double.POSITIVE_INFINITY;
        }
        int concurrency = maxConcurrentSequences(model, promptTokens, outputTokens);
        int requests = (int) Math.min(20_000, Math.max(64, 4L * concurrency));
        BatchScheduler scheduler = new BatchScheduler(model.withJitter(0));
        List<long[]> finishes = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            long offset = (long) i << 32;
            long[] prompt =
                    LongStream.range(0, promptTokens).map(t -> offset + t).toArray();
            scheduler.submit(
                    new Generation("probe-" + i, 0, prompt, outputTokens, 0, true, i), new FinishClock(finishes));
        }
        long previousEnd = Long.MIN_VALUE;
        while (scheduler.hasWork()) {
            StepPlan plan = scheduler.step(scheduler.nextStepStart(previousEnd));
            for (StepPlan.Emission emission : plan.emissions()) {
                emission.deliver();
            }
            previousEnd = plan.endNanos();
        }
        long[] times = finishes.stream().mapToLong(f -> f[0]).sorted().toArray();
        int from = times.length / 4;
        int to = times.length * 3 / 4;
        long span = times[to] - times[from];
        return span <= 0
                ? requests * 1e9 / Math.max(1, Arrays.stream(times).max().orElse(1))
                : (to - from) * 1e9 / span;
    }

    private static void requireShape(PerformanceModel model, int promptTokens, int outputTokens) {
        if (promptTokens < 1 || outputTokens < 1 || (long) promptTokens + outputTokens > model.maxModelLen()) {
            throw new IllegalArgumentException("Requests of " + promptTokens + " prompt and " + outputTokens
                    + " output tokens do not fit model '" + model.name() + "' (at least 1 of each, at most "
                    + model.maxModelLen() + " together)");
        }
    }

    /** Notes when each request finished. */
    private record FinishClock(List<long[]> finishes) implements TokenSink {

        @Override
        public void onTokens(int firstTokenIndex, int count, long intendedNanos) {}

        @Override
        public void onFinish(String finishReason, long intendedNanos) {
            finishes.add(new long[] {intendedNanos});
        }

        @Override
        public boolean isCancelled() {
            return false;
        }
    }
}
