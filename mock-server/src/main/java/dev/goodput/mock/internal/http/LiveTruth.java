package dev.goodput.mock.internal.http;

import dev.goodput.mock.ChunkTiming;
import dev.goodput.mock.Fault;
import dev.goodput.mock.RequestTruth;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The ground truth of one request while it is being served. Chunks are recorded from the writer lane and their
 * send times from whichever thread completed the write, so every method synchronises (uncontended, cheap).
 */
final class LiveTruth {

    private final String id;
    private final String endpoint;
    private final boolean stream;
    private final long arrivalNanos;
    private final int promptTokens;
    private final int maxTokens;
    private final Fault fault;
    private final GroundTruthLog log;
    private int[] firstTokens;
    private int[] tokenCounts;
    private long[] intended;
    private long[] sent;
    private int chunks;
    private int completionTokens;
    private boolean finished;
    private int reasoningTokens;
    private boolean toolCall;

    LiveTruth(
            String id,
            String endpoint,
            boolean stream,
            long arrivalNanos,
            int promptTokens,
            int maxTokens,
            Fault fault,
            GroundTruthLog log,
            int expectedChunks) {
        // Sized for the expected chunks up front: growing by doubling would make garbage on every stream.
        int capacity = Math.max(1, Math.min(expectedChunks, 1024));
        this.firstTokens = new int[capacity];
        this.tokenCounts = new int[capacity];
        this.intended = new long[capacity];
        this.sent = new long[capacity];
        this.id = id;
        this.endpoint = endpoint;
        this.stream = stream;
        this.arrivalNanos = arrivalNanos;
        this.promptTokens = promptTokens;
        this.maxTokens = maxTokens;
        this.fault = fault;
        this.log = log;
    }

    /** Notes how the answer is shaped: its leading reasoning tokens, and whether it is a tool call. */
    synchronized void answerShape(int reasoning, boolean callsTool) {
        reasoningTokens = reasoning;
        toolCall = callsTool;
    }

    /** Records a chunk about to be written; returns its index for {@link #chunkSent}. */
    synchronized int chunk(int firstToken, int tokens, long intendedNanos) {
        if (chunks == intended.length) {
            int size = chunks * 2;
            firstTokens = Arrays.copyOf(firstTokens, size);
            tokenCounts = Arrays.copyOf(tokenCounts, size);
            intended = Arrays.copyOf(intended, size);
            sent = Arrays.copyOf(sent, size);
        }
        firstTokens[chunks] = firstToken;
        tokenCounts[chunks] = tokens;
        intended[chunks] = intendedNanos;
        sent[chunks] = -1;
        completionTokens = Math.max(completionTokens, firstToken + tokens);
        return chunks++;
    }

    void chunkSent(int chunk, long sentNanos) {
        synchronized (this) {
            sent[chunk] = sentNanos;
        }
        if (chunk == 0 && stream) {
            // As vLLM does, the first token's time counts when it leaves, not when the request ends: a client that
            // scrapes right after its last answer then finds every first token it saw.
            log.firstTokenSent(sentNanos - arrivalNanos);
        }
    }

    /** Marks every chunk recorded so far as sent at {@code sentNanos} (a non-streaming body). */
    synchronized void allSent(long sentNanos) {
        Arrays.fill(sent, 0, chunks, sentNanos);
    }

    synchronized int completionTokens() {
        return completionTokens;
    }

    /** Completes the record once; later calls (e.g. a close after the end) are ignored. */
    void finish(long endNanos, String finishReason, int status) {
        RequestTruth truth;
        synchronized (this) {
            if (finished) {
                return;
            }
            finished = true;
            List<ChunkTiming> timings = new ArrayList<>(chunks);
            for (int i = 0; i < chunks; i++) {
                timings.add(new ChunkTiming(firstTokens[i], tokenCounts[i], intended[i], sent[i]));
            }
            truth = new RequestTruth(
                    id,
                    endpoint,
                    stream,
                    arrivalNanos,
                    promptTokens,
                    maxTokens,
                    completionTokens,
                    timings,
                    endNanos,
                    finishReason,
                    fault,
                    status,
                    Math.min(reasoningTokens, completionTokens),
                    toolCall && completionTokens > reasoningTokens ? 1 : 0);
        }
        log.add(this, truth);
    }

    synchronized boolean isFinished() {
        return finished;
    }
}
