package dev.goodput.core.bench.coverage;

import dev.goodput.core.testing.FakeScheduler;
import dev.goodput.mock.internal.engine.TokenSink;
import dev.goodput.mock.internal.engine.VirtualTimeEngine;
import java.util.SplittableRandom;

/**
 * One very long run of a simulated server alone, for the truth: Poisson arrivals straight into the engine model
 * (no client, no records), each request's TTFT and TPOT as the server emitted them, in arrival order. The client
 * measures exactly these values request by request ({@code VirtualGateRunTest} holds it to that), so the long run
 * can skip it and be long enough to pin the truth down.
 *
 * @param arrivalNanos each request's arrival
 * @param lastTokenNanos when each request's last token was emitted
 * @param ttftNanos each request's TTFT
 * @param tpotNanos each request's TPOT
 */
public record TruthRun(long[] arrivalNanos, long[] lastTokenNanos, double[] ttftNanos, double[] tpotNanos) {

    /** Runs {@code warmup + requests} arrivals at {@code rate} per second and keeps the last {@code requests}. */
    public static TruthRun of(ServerPreset preset, double rate, int warmup, int requests, long seed) {
        FakeScheduler scheduler = new FakeScheduler(0);
        VirtualTimeEngine engine =
                new VirtualTimeEngine(preset.withServerSeed(seed).model(), scheduler);
        TruthRun run = new TruthRun(new long[requests], new long[requests], new double[requests], new double[requests]);
        SplittableRandom random = new SplittableRandom(seed);
        double arrivalSeconds = 0;
        for (int i = 0; i < warmup + requests; i++) {
            arrivalSeconds += -Math.log(1 - random.nextDouble()) / rate;
            long arrival = Math.round(arrivalSeconds * 1e9);
            int slot = i - warmup;
            int tokens = preset.outputTokens();
            scheduler.schedule(
                    arrival,
                    () -> engine.submit("t" + slot, preset.promptTokens(), tokens, slot, new TokenSink() {
                        private long firstToken = -1;
                        private long lastToken;

                        @Override
                        public void onTokens(int firstTokenIndex, int count, long intendedNanos) {
                            if (firstToken < 0) {
                                firstToken = intendedNanos;
                            }
                            lastToken = intendedNanos;
                        }

                        @Override
                        public void onFinish(String finishReason, long intendedNanos) {
                            if (slot >= 0) {
                                run.arrivalNanos[slot] = arrival;
                                run.lastTokenNanos[slot] = lastToken;
                                run.ttftNanos[slot] = firstToken - arrival;
                                run.tpotNanos[slot] = (double) (lastToken - firstToken) / (tokens - 1);
                            }
                        }

                        @Override
                        public boolean isCancelled() {
                            return false;
                        }
                    }));
            // Keep the queue of pending arrivals short: run the engine up to this arrival before adding more.
            scheduler.runUntil(arrival - 1, Integer.MAX_VALUE - 1);
        }
        scheduler.runUntilIdle(Integer.MAX_VALUE - 1);
        return run;
    }
}
