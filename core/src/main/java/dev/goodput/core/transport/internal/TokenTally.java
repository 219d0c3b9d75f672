package dev.goodput.core.transport.internal;

import dev.goodput.core.record.TokenCountSource;
import dev.goodput.core.transport.internal.sse.StreamChunk;
import dev.goodput.core.workload.TokenCounter;

/**
 * Counts one stream's tokens as the metric definitions say: the tokens each content event carries (from
 * continuous usage, else one), the server's prompt count, and at the end the output count from the best source
 * available: the final usage event, the usage on the finishing event, the last continuous usage, a client
 * tokenizer, or the content events.
 * Not thread-safe: the request of its {@link MeasuredAttempt} guards it.
 */
public final class TokenTally {

    /** The output count and where it came from, with the client's own count beside it. */
    public record OutputCount(int tokens, TokenCountSource source, int clientTokens) {}

    private final TokenCounter clientCounter;
    private StringBuilder generatedText;
    private int lastCumulativeCompletionTokens;
    private boolean continuousUsageSeen;
    private int continuousCompletionTokens = -1;
    private int finishCompletionTokens = -1;
    private int finalCompletionTokens = -1;
    private int serverPromptTokens = -1;

    public TokenTally(TokenCounter clientCounter) {
        this.clientCounter = clientCounter;
        this.generatedText = clientCounter == null ? null : new StringBuilder();
    }

    /**
     * Returns how many tokens a content event carries. With continuous usage the count is cumulative, so the
     * event carries the difference; an event whose count did not grow (text held back by the server's
     * detokenizer) still counts as one token. Without usage, one; and one for the finishing event whose usage is
     * the first the stream sent (llama.cpp's): that count is the whole output, not this event's.
     */
    public int tokensOf(StreamChunk content) {
        if (content.completionTokens() >= 0
                && !content.finalUsage()
                && (continuousUsageSeen || content.finishReason() == null)) {
            return Math.max(1, content.completionTokens() - lastCumulativeCompletionTokens);
        }
        return 1;
    }

    /** Takes the text and usage of any event; call after {@link #tokensOf} for a content event. */
    public void take(StreamChunk chunk) {
        if (generatedText != null && chunk.kind() == StreamChunk.Kind.CONTENT) {
            generatedText.append(chunk.text());
        }
        if (chunk.promptTokens() >= 0) {
            serverPromptTokens = chunk.promptTokens();
        }
        if (chunk.completionTokens() >= 0) {
            if (chunk.finalUsage()) {
                finalCompletionTokens = chunk.completionTokens();
            } else if (chunk.finishReason() != null && !continuousUsageSeen) {
                finishCompletionTokens = chunk.completionTokens();
            } else {
                continuousUsageSeen = true;
                continuousCompletionTokens = chunk.completionTokens();
                lastCumulativeCompletionTokens = chunk.completionTokens();
            }
        }
    }

    /** Returns whether the stream carried continuous usage, which gave each content event its token count. */
    public boolean continuousUsageSeen() {
        return continuousUsageSeen;
    }

    /** Returns the server's prompt token count, or -1 when it sent none. */
    public int serverPromptTokens() {
        return serverPromptTokens;
    }

    /** Returns the server's output count so far (final, finishing-event or continuous usage), or -1 when none. */
    public int serverOutputTokens() {
        if (finalCompletionTokens >= 0) {
            return finalCompletionTokens;
        }
        return finishCompletionTokens >= 0 ? finishCompletionTokens : continuousCompletionTokens;
    }

    /** Returns the output count from the best source; call once, at the end of the stream. */
    public OutputCount output(int contentEvents) {
        int clientTokens = -1;
        if (clientCounter != null) {
            clientTokens = clientCounter.count(generatedText.toString());
            generatedText = null;
        }
        if (finalCompletionTokens >= 0) {
            return new OutputCount(finalCompletionTokens, TokenCountSource.USAGE, clientTokens);
        }
        if (finishCompletionTokens >= 0) {
            return new OutputCount(finishCompletionTokens, TokenCountSource.FINISH_EVENT_USAGE, clientTokens);
        }
        if (continuousCompletionTokens >= 0) {
            return new OutputCount(continuousCompletionTokens, TokenCountSource.CONTINUOUS_USAGE, clientTokens);
        }
        if (clientTokens >= 0) {
            return new OutputCount(clientTokens, TokenCountSource.CLIENT_TOKENIZER, clientTokens);
        }
        if (contentEvents > 0) {
            return new OutputCount(contentEvents, TokenCountSource.CONTENT_EVENTS, clientTokens);
        }
        return new OutputCount(0, TokenCountSource.NONE, clientTokens);
    }
}
