package dev.goodput.core.transport;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.ByteBuffer;
import org.apiguardian.api.API;

/**
 * Sees every read of a response body with the clock reading taken for it, before the attempt parses it. The
 * client benchmark uses it to hold each token's receipt against the simulated server's record of its send; runs
 * use {@link #NONE}.
 */
@API(status = EXPERIMENTAL, since = "0.2")
@FunctionalInterface
public interface ReadTap {

    /** Sees nothing. */
    ReadTap NONE = (attempt, bytes, nanos) -> {};

    /**
     * Called on the transport's thread for each buffer of a read. Must not change the buffer's position or limit
     * (read it with absolute gets) and must return quickly: the read's tokens wait for it.
     */
    void onRead(StreamAttempt attempt, ByteBuffer bytes, long nanos);
}
