package dev.goodput.core.internal.client;

/**
 * Sends one attempt of a request and feeds what comes back into its {@link StreamAttempt}: headers, then bytes
 * with the clock reading of each read, then the end of the stream or a failure.
 */
public interface Transport extends AutoCloseable {

    /**
     * Starts sending; returns at once. Every callback of one attempt arrives from one thread at a time.
     *
     * @return a handle that aborts the exchange (used by timeouts and cancellation)
     */
    Exchange start(StreamAttempt attempt);

    @Override
    void close();
}
