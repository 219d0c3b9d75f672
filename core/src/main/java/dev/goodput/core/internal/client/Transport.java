package dev.goodput.core.internal.client;

/**
 * Sends requests and feeds what comes back into their {@link InFlightRequest}: headers, then bytes with the
 * clock reading of each read, then the end of the stream or a failure.
 */
public interface Transport extends AutoCloseable {

    /**
     * Starts sending; returns at once. Every callback of one request arrives from one thread at a time.
     *
     * @return a handle that aborts the exchange (used by timeouts and cancellation)
     */
    Exchange start(InFlightRequest request);

    @Override
    void close();
}
