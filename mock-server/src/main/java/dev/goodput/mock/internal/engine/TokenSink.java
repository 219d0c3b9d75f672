package dev.goodput.mock.internal.engine;

/**
 * Receives one generation's output from the engine. Calls arrive in order from engine threads and must not
 * block: the HTTP layer queues the bytes and writes them on its own threads.
 */
public interface TokenSink {

    /**
     * The model emitted {@code count} tokens (more than one with multi-token chunks), starting at output
     * token index {@code firstTokenIndex} (0-based).
     *
     * @param intendedNanos when the model meant them to be emitted, on the engine's clock
     */
    void onTokens(int firstTokenIndex, int count, long intendedNanos);

    /**
     * The generation ended: {@code "stop"} (natural end), {@code "length"} (max tokens reached) or {@code
     * "abort"} (engine closed or request cancelled). No call follows.
     */
    void onFinish(String finishReason, long intendedNanos);

    /**
     * Polled by the engine at step boundaries; when true the generation is dropped and its batch slot and
     * cache blocks are freed (the client went away).
     */
    boolean isCancelled();
}
