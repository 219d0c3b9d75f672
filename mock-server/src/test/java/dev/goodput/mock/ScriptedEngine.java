package dev.goodput.mock;

import dev.goodput.mock.internal.engine.EngineSnapshot;
import dev.goodput.mock.internal.engine.Generation;
import dev.goodput.mock.internal.engine.InferenceEngine;
import dev.goodput.mock.internal.engine.TokenSink;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A scripted engine for exact protocol tests: emits {@code tokensPerChunk} tokens every {@code gapMillis}
 * milliseconds and stops naturally after {@code naturalLength} tokens unless {@code ignore_eos} or {@code
 * max_tokens} ends it first.
 */
final class ScriptedEngine implements InferenceEngine {

    final List<Generation> submitted = new CopyOnWriteArrayList<>();
    private final int naturalLength;
    private final int tokensPerChunk;
    private final long gapMillis;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

    ScriptedEngine(int naturalLength, int tokensPerChunk, long gapMillis) {
        this.naturalLength = naturalLength;
        this.tokensPerChunk = tokensPerChunk;
        this.gapMillis = gapMillis;
    }

    @Override
    public void submit(Generation generation, TokenSink sink) {
        submitted.add(generation);
        int length = generation.ignoreEos()
                ? generation.maxTokens()
                : Math.min(generation.maxTokens(), Math.max(naturalLength, generation.minTokens()));
        String reason = length == generation.maxTokens() ? "length" : "stop";
        long start = System.nanoTime();
        int emission = 0;
        for (int first = 0; first < length; first += tokensPerChunk, emission++) {
            int from = first;
            int count = Math.min(tokensPerChunk, length - first);
            long delay = (emission + 1) * gapMillis;
            timer.schedule(
                    () -> {
                        if (!sink.isCancelled()) {
                            sink.onTokens(from, count, start + TimeUnit.MILLISECONDS.toNanos(delay));
                        }
                    },
                    delay,
                    TimeUnit.MILLISECONDS);
        }
        long end = (emission + (reason.equals("stop") ? 1 : 0)) * gapMillis;
        timer.schedule(
                () -> sink.onFinish(reason, start + TimeUnit.MILLISECONDS.toNanos(end)), end, TimeUnit.MILLISECONDS);
    }

    @Override
    public EngineSnapshot snapshot() {
        return new EngineSnapshot(1, 2, 0.25, 100, 40, 3, 1000, 500, 77, 0);
    }

    /** Keeps no state between generations, so there is nothing to reset. */
    @Override
    public void reset(java.time.Duration timeout) {}

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
