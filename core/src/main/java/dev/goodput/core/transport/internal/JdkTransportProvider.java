package dev.goodput.core.transport.internal;

import dev.goodput.core.NanoClock;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.transport.ReadTap;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.transport.TransportProvider;

/** Provides {@link HttpTransport}, the JDK's {@code java.net.http} client: the default, {@value #NAME}. */
public final class JdkTransportProvider implements TransportProvider {

    /** The name that selects this provider. */
    public static final String NAME = "jdk";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Transport create(ServerEndpoint endpoint, NanoClock clock, ReadTap tap) {
        return new HttpTransport(endpoint, clock, tap);
    }
}
