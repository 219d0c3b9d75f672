package dev.goodput.core.transport;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.NanoClock;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.transport.internal.HttpTransport;
import dev.goodput.core.transport.internal.Transports;
import org.apiguardian.api.API;

/**
 * Makes the transports of one kind, found with {@link java.util.ServiceLoader} by {@link Transports}: core provides
 * {@code jdk} ({@link HttpTransport}), the module {@code goodput-transport-netty} provides {@code netty}. Internal:
 * the one setting {@value Transports#SETTING} chooses among them, so users never name a provider class.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public interface TransportProvider {

    /** Returns the name the setting {@value Transports#SETTING} selects this provider by. */
    String name();

    /** Returns a new transport to the endpoint that shows every read to {@code tap} before parsing it. */
    Transport create(ServerEndpoint endpoint, NanoClock clock, ReadTap tap);
}
