package dev.goodput.core.record;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.NanoClock;
import dev.goodput.core.load.Load;
import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * Everything measured about one request, frozen when the request ended. One record exists for every request
 * the load schedule created, whatever its outcome.
 *
 * <p>Instants are readings of the run's {@link NanoClock} in nanoseconds; an instant that never happened
 * (for example the first token of a request that failed before streaming) is {@link #ABSENT}. Token counts
 * that are unknown are {@code -1}.
 *
 * @param index position of the request in the schedule, starting at 0
 * @param phase warm-up, measured or cool-down
 * @param intendedNanos when the load profile meant the request to start (open loop: its arrival in the
 *     schedule; closed loop: when its virtual user became free, plus think time)
 * @param dispatchedNanos when the request left the client, after any client-side queue or concurrency cap
 * @param headersNanos when the HTTP status and headers arrived
 * @param firstTokenNanos when the first event carrying non-empty generated text arrived
 * @param lastTokenNanos when the last event carrying generated text arrived
 * @param endNanos when the stream closed for any reason
 * @param heldByConcurrencyCap whether the request waited for a slot of a max-concurrency cap; such waiting
 *     is queue time, not client lag
 * @param httpStatus the HTTP status, or 0 when no response arrived
 * @param contentEvents number of events that carried generated text
 * @param outputTokens output tokens, counted as {@link #outputTokenSource} says
 * @param outputTokenSource where {@link #outputTokens} came from
 * @param clientOutputTokens output tokens counted by a client tokenizer, or -1 when none is configured
 * @param serverPromptTokens {@code usage.prompt_tokens} from the server, or -1 when it sent none
 * @param clientPromptTokens the client's own prompt token count, or -1 when unknown
 * @param maxStallNanos the largest gap between consecutive content events, or {@link #ABSENT} with fewer
 *     than two content events
 * @param finishReason the finish reason the server gave, or {@code null}
 * @param outcome how the request ended
 * @param errorDetail a readable reason for every outcome but {@link Outcome#SUCCESS}, else {@code null}
 * @param retriedAttempts the earlier attempts when the request was retried ({@link Load#retries(int)}),
 *     oldest first; empty when it was sent once. This record describes the final attempt, with its latencies
 *     measured from the request's intended start and {@code dispatchedNanos} the first attempt's send
 * @param connectionRetries how many times the request was sent again because the connection it went out on was
 *     closed before any byte of a response arrived (a pooled keep-alive connection the server had already
 *     closed): the server never saw those sends, so they are neither failures nor {@link #retriedAttempts()};
 *     latencies still count from the intended start
 * @param serverTimings the server's own timing of the request when its stream reported one (llama.cpp's {@code
 *     timings}), else {@code null}
 * @param streamPhases the stream's reasoning and answer phases and its tool calls; {@link StreamPhases#NONE}
 *     (also for {@code null}) when unknown, which reads as a stream that is all answer
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RequestRecord(
        long index,
        Phase phase,
        long intendedNanos,
        long dispatchedNanos,
        long headersNanos,
        long firstTokenNanos,
        long lastTokenNanos,
        long endNanos,
        boolean heldByConcurrencyCap,
        int httpStatus,
        int contentEvents,
        int outputTokens,
        TokenCountSource outputTokenSource,
        int clientOutputTokens,
        int serverPromptTokens,
        int clientPromptTokens,
        long maxStallNanos,
        String finishReason,
        Outcome outcome,
        String errorDetail,
        List<RequestAttempt> retriedAttempts,
        int connectionRetries,
        ServerTimings serverTimings,
        StreamPhases streamPhases) {

    /** Marks an instant that never happened. */
    public static final long ABSENT = Long.MIN_VALUE;

    public RequestRecord {
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(outputTokenSource, "outputTokenSource");
        Objects.requireNonNull(outcome, "outcome");
        if (outcome != Outcome.SUCCESS && errorDetail == null) {
            throw new IllegalArgumentException("a " + outcome + " record needs an errorDetail");
        }
        retriedAttempts = List.copyOf(retriedAttempts);
        if (connectionRetries < 0) {
            throw new IllegalArgumentException("connectionRetries must not be negative, was " + connectionRetries);
        }
        streamPhases = streamPhases == null ? StreamPhases.NONE : streamPhases;
    }

    /**
     * Returns this record with other failure reasons: its own and its earlier attempts' (the rest unchanged), for
     * example with a secret taken out of them.
     */
    public RequestRecord withReasons(String newErrorDetail, List<RequestAttempt> newRetriedAttempts) {
        return new RequestRecord(
                index,
                phase,
                intendedNanos,
                dispatchedNanos,
                headersNanos,
                firstTokenNanos,
                lastTokenNanos,
                endNanos,
                heldByConcurrencyCap,
                httpStatus,
                contentEvents,
                outputTokens,
                outputTokenSource,
                clientOutputTokens,
                serverPromptTokens,
                clientPromptTokens,
                maxStallNanos,
                finishReason,
                outcome,
                newErrorDetail,
                newRetriedAttempts,
                connectionRetries,
                serverTimings,
                streamPhases);
    }

    /**
     * Returns this record in another phase (the rest unchanged): a run that stopped at a deciding look turns the
     * measured requests after its decision into its cool-down.
     */
    public RequestRecord withPhase(Phase newPhase) {
        return new RequestRecord(
                index,
                newPhase,
                intendedNanos,
                dispatchedNanos,
                headersNanos,
                firstTokenNanos,
                lastTokenNanos,
                endNanos,
                heldByConcurrencyCap,
                httpStatus,
                contentEvents,
                outputTokens,
                outputTokenSource,
                clientOutputTokens,
                serverPromptTokens,
                clientPromptTokens,
                maxStallNanos,
                finishReason,
                outcome,
                errorDetail,
                retriedAttempts,
                connectionRetries,
                serverTimings,
                streamPhases);
    }

    /** Returns how many times the request was sent: 1 plus its retries (connection retries not counted). */
    public int attempts() {
        return retriedAttempts.size() + 1;
    }

    /** Returns whether this request succeeded. */
    public boolean isSuccess() {
        return outcome == Outcome.SUCCESS;
    }

    /** Returns the input token count: the server's when it sent one, else the client's, else -1. */
    public int inputTokens() {
        return serverPromptTokens >= 0 ? serverPromptTokens : clientPromptTokens;
    }

    /** Time to first token measured from the intended start: {@code firstToken - intended}. */
    public long ttftNanos() {
        return difference(firstTokenNanos, intendedNanos);
    }

    /** Time to first token measured from the send, as vLLM defines it: {@code firstToken - dispatched}. */
    public long ttftFromSendNanos() {
        return difference(firstTokenNanos, dispatchedNanos);
    }

    /** Client-side queue time: {@code dispatched - intended}. */
    public long queueNanos() {
        return difference(dispatchedNanos, intendedNanos);
    }

    /** End-to-end latency from the intended start: {@code lastToken - intended}. */
    public long e2elNanos() {
        return difference(lastTokenNanos, intendedNanos);
    }

    /** End-to-end latency from the send, as vLLM defines it: {@code lastToken - dispatched}. */
    public long e2elFromSendNanos() {
        return difference(lastTokenNanos, dispatchedNanos);
    }

    /**
     * Time per output token after the first: {@code (lastToken - firstToken) / (outputTokens - 1)}, or
     * {@link Double#NaN} with fewer than two output tokens.
     */
    public double tpotNanos() {
        if (outputTokens < 2 || firstTokenNanos == ABSENT || lastTokenNanos == ABSENT) {
            return Double.NaN;
        }
        return (double) (lastTokenNanos - firstTokenNanos) / (outputTokens - 1);
    }

    /**
     * Time to first output token from the intended start: {@code firstAnswer - intended}, the first event of the
     * answer (content or a tool call) after any reasoning; GuideLLM's TTFOT, AIPerf's TTFO. Equals {@link
     * #ttftNanos()} for a stream without reasoning.
     */
    public long ttfoNanos() {
        return difference(streamPhases.isKnown() ? streamPhases.firstAnswerNanos() : firstTokenNanos, intendedNanos);
    }

    /**
     * Time per output token of the answer after its first: {@code (lastAnswer - firstAnswer) / (answerTokens -
     * 1)} with {@code answerTokens = outputTokens - reasoningTokens}, or NaN with fewer than two answer tokens.
     * Equals {@link #tpotNanos()} for a stream without reasoning.
     */
    public double answerTpotNanos() {
        if (!streamPhases.isKnown()) {
            return tpotNanos();
        }
        int answerTokens = outputTokens - streamPhases.reasoningTokens();
        long first = streamPhases.firstAnswerNanos();
        long last = streamPhases.lastAnswerNanos();
        if (answerTokens < 2 || first == ABSENT || last == ABSENT) {
            return Double.NaN;
        }
        return (double) (last - first) / (answerTokens - 1);
    }

    private static long difference(long later, long earlier) {
        return later == ABSENT || earlier == ABSENT ? ABSENT : later - earlier;
    }
}
