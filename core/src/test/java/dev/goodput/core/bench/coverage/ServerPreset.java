package dev.goodput.core.bench.coverage;

import dev.goodput.core.testing.FakeScheduler;
import dev.goodput.core.testing.VirtualTimeServer;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.internal.engine.TokenSink;
import dev.goodput.mock.internal.engine.VirtualTimeEngine;
import java.time.Duration;

/**
 * A simulated server of the coverage harness: the mock server's engine model, the request shape every request has,
 * and the capacity (requests per second at saturation) that utilisations are fractions of.
 *
 * @param name how tables name it
 * @param model the mock server's performance model
 * @param promptTokens prompt tokens of every request
 * @param outputTokens output tokens of every request (generated to the end, no early stop)
 */
public record ServerPreset(String name, PerformanceModel model, int promptTokens, int outputTokens) {

    /**
     * An M/D/1 queue: one request at a time in arrival order, the first token 20 ms after it starts and the
     * other 4 at 5 ms each, so every request holds the server for exactly 40 ms (capacity 25 requests/s).
     */
    public static ServerPreset singleSlot() {
        return new ServerPreset(
                "single-slot", PerformanceModel.singleSlot(Duration.ofMillis(20), Duration.ofMillis(5)), 16, 5);
    }

    /**
     * Continuous batching on mock-server's {@code tiny-test} roofline model: up to 8 sequences per step (KV cache
     * for all of them), a step's time growing with the KV cache the batch reads and with any prefill chunk it
     * carries, 10 % seeded jitter per step. 512 prompt and 32 output tokens, so TPOT varies with the load.
     */
    public static ServerPreset batching(long serverSeed) {
        PerformanceModel model = PerformanceModel.preset("tiny-test")
                .withMaxNumSeqs(8)
                .withKvCacheTokens(16_384)
                .withPrefixCaching(false)
                .withJitter(0.1)
                .withSeed(serverSeed);
        return new ServerPreset("batching", model, 512, 32);
    }

    /** Returns this preset with the server's own random seed (step jitter) set. */
    public ServerPreset withServerSeed(long serverSeed) {
        return new ServerPreset(name, model.withSeed(serverSeed), promptTokens, outputTokens);
    }

    /** Returns a server of this preset on {@code scheduler}. */
    public VirtualTimeServer server(FakeScheduler scheduler, long requestSeed) {
        return new VirtualTimeServer(scheduler, model, promptTokens, outputTokens, requestSeed);
    }

    /**
     * Returns the requests per second the server completes when it is never idle: {@code requests} submitted at
     * once, timed from the 20 % point to the last (so the start-up with an empty batch does not count).
     */
    public double capacityPerSecond(int requests) {
        FakeScheduler scheduler = new FakeScheduler(0);
        VirtualTimeEngine engine = new VirtualTimeEngine(model, scheduler);
        long[] finishes = new long[requests];
        int[] finished = {0};
        for (int i = 0; i < requests; i++) {
            engine.submit("c" + i, promptTokens, outputTokens, i, new TokenSink() {
                @Override
                public void onTokens(int firstTokenIndex, int count, long intendedNanos) {}

                @Override
                public void onFinish(String finishReason, long intendedNanos) {
                    finishes[finished[0]++] = intendedNanos;
                }

                @Override
                public boolean isCancelled() {
                    return false;
                }
            });
        }
        scheduler.runUntilIdle(Integer.MAX_VALUE - 1);
        int from = requests / 5;
        return (requests - 1 - from) * 1e9 / (finishes[requests - 1] - finishes[from]);
    }
}
