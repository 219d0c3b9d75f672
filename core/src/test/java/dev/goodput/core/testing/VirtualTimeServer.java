package dev.goodput.core.testing;

import dev.goodput.core.transport.Exchange;
import dev.goodput.core.transport.StreamAttempt;
import dev.goodput.core.transport.Transport;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.internal.engine.TokenSink;
import dev.goodput.mock.internal.engine.VirtualTimeEngine;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A simulated streaming server on a {@link FakeScheduler}: each attempt becomes a generation of the mock server's
 * own engine model ({@link VirtualTimeEngine}), and its tokens reach the client as vLLM-shaped SSE bytes at the
 * instants the model emits them. The server keeps its own ground truth per request: when the request reached it,
 * when it emitted the first and the last token.
 *
 * <p>Every request runs to exactly {@code outputTokens} tokens after a prompt of {@code promptTokens} tokens, so
 * what varies between requests is the load they meet, nothing else.
 */
public final class VirtualTimeServer implements Transport {

    /**
     * What the server knows of one request.
     *
     * @param index the request's schedule position
     * @param arrivalNanos when it reached the server
     * @param firstTokenNanos when its first token was emitted
     * @param lastTokenNanos when its last token was emitted
     * @param tokens how many tokens it was given
     */
    public record Truth(long index, long arrivalNanos, long firstTokenNanos, long lastTokenNanos, int tokens) {

        public long ttftNanos() {
            return firstTokenNanos - arrivalNanos;
        }

        public double tpotNanos() {
            return (double) (lastTokenNanos - firstTokenNanos) / (tokens - 1);
        }
    }

    private static final byte[] FIRST =
            (SseText.roleChunk() + SseText.contentChunk(" tok", null)).getBytes(StandardCharsets.UTF_8);
    private static final byte[] NEXT = SseText.contentChunk(" tok", null).getBytes(StandardCharsets.UTF_8);
    private static final byte[] LAST = SseText.contentChunk(" tok", "length").getBytes(StandardCharsets.UTF_8);

    private final FakeScheduler scheduler;
    private final VirtualTimeEngine engine;
    private final int promptTokens;
    private final int outputTokens;
    private final long seed;
    private final List<Truth> truths = new ArrayList<>();

    public VirtualTimeServer(
            FakeScheduler scheduler, PerformanceModel model, int promptTokens, int outputTokens, long seed) {
        if (outputTokens < 2) {
            throw new IllegalArgumentException("outputTokens must be at least 2 for a TPOT, was " + outputTokens);
        }
        this.scheduler = scheduler;
        this.engine = new VirtualTimeEngine(model, scheduler);
        this.promptTokens = promptTokens;
        this.outputTokens = outputTokens;
        this.seed = seed;
    }

    @Override
    public Exchange start(StreamAttempt attempt) {
        long index = attempt.requestIndex();
        long arrival = scheduler.now();
        // Headers go out at once, but not from inside start(): the driver is still sending.
        scheduler.schedule(arrival, () -> attempt.onHeaders(200, "text/event-stream", scheduler.now()));
        Stream stream = new Stream(attempt, index, arrival);
        engine.submit("r" + index, promptTokens, outputTokens, seed * 1_000_003L + index, stream);
        return () -> stream.cancelled = true;
    }

    /** Returns the truth of every request that finished, in the order they finished. */
    public List<Truth> truths() {
        return truths;
    }

    @Override
    public void close() {}

    private final class Stream implements TokenSink {
        private final StreamAttempt attempt;
        private final long index;
        private final long arrivalNanos;
        private long firstTokenNanos = -1;
        private long lastTokenNanos;
        private int sent;
        volatile boolean cancelled;

        Stream(StreamAttempt attempt, long index, long arrivalNanos) {
            this.attempt = attempt;
            this.index = index;
            this.arrivalNanos = arrivalNanos;
        }

        @Override
        public void onTokens(int firstTokenIndex, int count, long intendedNanos) {
            for (int i = 0; i < count; i++) {
                byte[] event = sent == 0 ? FIRST : sent == outputTokens - 1 ? LAST : NEXT;
                if (sent == 0) {
                    firstTokenNanos = intendedNanos;
                }
                sent++;
                attempt.onBytes(ByteBuffer.wrap(event), intendedNanos);
            }
            lastTokenNanos = intendedNanos;
        }

        @Override
        public void onFinish(String finishReason, long intendedNanos) {
            if (firstTokenNanos >= 0 && "length".equals(finishReason)) {
                truths.add(new Truth(index, arrivalNanos, firstTokenNanos, lastTokenNanos, sent));
            }
            String end = SseText.usageChunk(promptTokens, sent) + SseText.DONE;
            attempt.onBytes(ByteBuffer.wrap(end.getBytes(StandardCharsets.UTF_8)), intendedNanos);
            attempt.onEndOfStream(intendedNanos);
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }
    }
}
