package dev.goodput.core.transport.internal;

import static dev.goodput.core.record.RequestRecord.ABSENT;

import dev.goodput.core.record.StreamPhases;
import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.transport.internal.sse.StreamChunk;

/**
 * Follows one stream's reasoning and answer phases and its tool calls ({@link StreamPhases}). An event that carries
 * both reasoning and answer text counts in both phases, and its tokens count as reasoning: a parser releases such an
 * event when the thinking ends, and the server's own reasoning count, when it sends one, replaces the client's.
 * Not thread-safe: the request of its {@link MeasuredAttempt} guards it.
 */
public final class PhaseTally {

    private long firstReasoningNanos = ABSENT;
    private long lastReasoningNanos = ABSENT;
    private long firstAnswerNanos = ABSENT;
    private long lastAnswerNanos = ABSENT;
    private int reasoningEvents;
    private int answerEvents;
    private int clientReasoningTokens;
    private int serverReasoningTokens = -1;
    private long toolCallIndexes;

    /** Takes a content event that carries {@code tokens} tokens and arrived at {@code nanos}. */
    public void content(StreamChunk chunk, int tokens, long nanos) {
        if (chunk.reasoning()) {
            if (firstReasoningNanos == ABSENT) {
                firstReasoningNanos = nanos;
            }
            lastReasoningNanos = nanos;
            reasoningEvents++;
            clientReasoningTokens += tokens;
        }
        if (chunk.answer()) {
            if (firstAnswerNanos == ABSENT) {
                firstAnswerNanos = nanos;
            }
            lastAnswerNanos = nanos;
            answerEvents++;
        }
        toolCallIndexes |= chunk.toolCallIndexes();
    }

    /** Takes the server's reasoning count of any event (OpenAI sends it on the usage event). */
    public void usage(StreamChunk chunk) {
        if (chunk.reasoningTokens() >= 0) {
            serverReasoningTokens = chunk.reasoningTokens();
        }
    }

    /**
     * Returns the phases; call once, at the end of the stream.
     *
     * @param continuousUsage whether continuous usage gave the client's per-event token counts
     */
    public StreamPhases phases(boolean continuousUsage) {
        int reasoningTokens;
        TokenCountSource source;
        if (serverReasoningTokens >= 0 && (serverReasoningTokens > 0 || reasoningEvents == 0)) {
            reasoningTokens = serverReasoningTokens;
            source = serverReasoningTokens > 0 ? TokenCountSource.USAGE : TokenCountSource.NONE;
        } else if (reasoningEvents > 0) {
            // A server that reports 0 reasoning tokens while streaming reasoning text does not count it (OpenAI's
            // usage carries 0 for models that do not reason); the client's count is then the better one.
            reasoningTokens = clientReasoningTokens;
            source = continuousUsage ? TokenCountSource.CONTINUOUS_USAGE : TokenCountSource.CONTENT_EVENTS;
        } else {
            reasoningTokens = 0;
            source = TokenCountSource.NONE;
        }
        return new StreamPhases(
                firstReasoningNanos,
                lastReasoningNanos,
                firstAnswerNanos,
                lastAnswerNanos,
                reasoningEvents,
                answerEvents,
                reasoningTokens,
                source,
                Long.bitCount(toolCallIndexes));
    }
}
