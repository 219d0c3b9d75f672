package dev.goodput.core.transport;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Sends one attempt of a request and feeds what comes back into its {@link StreamAttempt}: headers, then bytes
 * with the clock reading of each read, then the end of the stream or a failure.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public interface Transport extends AutoCloseable {

    /**
     * Starts sending; returns at once. Every callback of one attempt arrives from one thread at a time.
     *
     * @return a handle that aborts the exchange (used by timeouts and cancellation)
     */
    Exchange start(StreamAttempt attempt);

    /**
     * Returns whether {@link #start} may be called on a thread that delivers this transport's reads without holding
     * up the other streams' reads. The load driver then starts a closed loop's next request on the thread that saw
     * the previous one end, instead of handing it to its scheduler's thread. False by default: a start on the JDK
     * client's selector thread takes it ~0.3 ms, and doing so made other streams' token stamps later at 100 streams.
     */
    default boolean startsOnReadThreadsCheaply() {
        return false;
    }

    @Override
    void close();
}
