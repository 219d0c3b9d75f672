package dev.goodput.core.record;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.NanoClock;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * How one request's stream divided into a reasoning phase and an answer phase, and how many tool calls it made.
 *
 * <p>Reasoning models stream their thinking before the answer: vLLM and SGLang in {@code delta.reasoning_content},
 * Ollama and newer vLLM in {@code delta.reasoning}. The answer is everything else that carries generated text:
 * {@code delta.content}, the completions {@code text}, {@code delta.refusal} and streamed {@code tool_calls}
 * (their names and argument fragments are output the model generated). One event can carry both, when a server's
 * reasoning parser releases the end of the thinking with the start of the answer; it then counts in both phases.
 * {@code RequestRecord.firstTokenNanos()} stays the first event of either kind, so TTFT keeps its meaning.
 *
 * <p>Instants are readings of the run's {@link NanoClock}, {@link RequestRecord#ABSENT} when the phase had no
 * event. {@link #NONE} stands for a stream without phase information (a record built without it): its whole
 * output is answer.
 *
 * @param firstReasoningNanos when the first event carrying reasoning text arrived
 * @param lastReasoningNanos when the last event carrying reasoning text arrived
 * @param firstAnswerNanos when the first event carrying answer text (content or a tool-call delta) arrived
 * @param lastAnswerNanos when the last event carrying answer text arrived
 * @param reasoningEvents events that carried reasoning text
 * @param answerEvents events that carried answer text
 * @param reasoningTokens reasoning tokens, counted as {@link #reasoningTokenSource} says; 0 without reasoning
 * @param reasoningTokenSource {@link TokenCountSource#USAGE} when the server's usage reported {@code
 *     completion_tokens_details.reasoning_tokens}; else the client's count over the reasoning events: {@link
 *     TokenCountSource#CONTINUOUS_USAGE} when continuous usage said how many tokens each event carried, {@link
 *     TokenCountSource#CONTENT_EVENTS} when each event counted as one; {@link TokenCountSource#NONE} without
 *     reasoning
 * @param toolCalls distinct tool calls the stream made, told apart by {@code delta.tool_calls[].index}
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record StreamPhases(
        long firstReasoningNanos,
        long lastReasoningNanos,
        long firstAnswerNanos,
        long lastAnswerNanos,
        int reasoningEvents,
        int answerEvents,
        int reasoningTokens,
        TokenCountSource reasoningTokenSource,
        int toolCalls) {

    /** No phase information: no reasoning, no tool calls, the whole output is answer. */
    public static final StreamPhases NONE = new StreamPhases(
            RequestRecord.ABSENT,
            RequestRecord.ABSENT,
            RequestRecord.ABSENT,
            RequestRecord.ABSENT,
            0,
            0,
            0,
            TokenCountSource.NONE,
            0);

    public StreamPhases {
        Objects.requireNonNull(reasoningTokenSource, "reasoningTokenSource");
        if (reasoningEvents < 0 || answerEvents < 0 || reasoningTokens < 0 || toolCalls < 0) {
            throw new IllegalArgumentException("counts must not be negative: reasoningEvents " + reasoningEvents
                    + ", answerEvents " + answerEvents + ", reasoningTokens " + reasoningTokens + ", toolCalls "
                    + toolCalls);
        }
    }

    /** Returns whether the stream reasoned: it carried reasoning text, or the server counted reasoning tokens. */
    public boolean hasReasoning() {
        return reasoningEvents > 0 || reasoningTokens > 0;
    }

    /** Returns whether this is phase information at all, rather than {@link #NONE}'s "all of it is answer". */
    public boolean isKnown() {
        return reasoningEvents > 0 || answerEvents > 0 || reasoningTokens > 0;
    }
}
