package dev.goodput.mock.internal.engine;

import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.function.LongConsumer;

/**
 * The simulated inference engine as the HTTP layer sees it: generations go in, tokens come out at the times
 * the performance model says.
 *
 * <p>Implementations are thread-safe. {@link #submit} never blocks; the sink is called from engine threads
 * once the model's intended time for each emission has been reached.
 */
public interface InferenceEngine extends AutoCloseable {

    /** Queues a generation; its tokens are delivered to {@code sink}. */
    void submit(Generation generation, TokenSink sink);

    /** Returns the engine's current gauges and counters, for {@code /metrics}. */
    EngineSnapshot snapshot();

    /**
     * Sets what is told each generation's queue time, from its arrival to its first scheduling in an engine
     * step, in nanoseconds on the engine's clock; called on the engine's thread. Set it before the first
     * submission. Engines without a queue (the fixed model's) never call it.
     */
    default void observeQueueTimes(LongConsumer observer) {}

    /**
     * Brings the engine back to the state it started in, at the first moment it has no generation running or
     * waiting: an empty KV cache (so an empty prefix cache), zeroed counters, the jitter draws from the start of
     * their seeded sequence. Returns once that is done; generations submitted meanwhile run first.
     *
     * @throws TimeoutException if the engine was not idle within {@code timeout}; it then resets when it next is
     */
    void reset(Duration timeout) throws TimeoutException, InterruptedException;

    /** Stops the engine threads; generations still running are finished with reason {@code "abort"}. */
    @Override
    void close();
}
