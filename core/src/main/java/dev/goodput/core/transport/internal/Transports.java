package dev.goodput.core.transport.internal;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.NanoClock;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.transport.ReadTap;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.transport.TransportProvider;
import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * Finds a transport by the name the setting {@value #SETTING} gives it, among the providers on the class path.
 * They are looked up once: the class path does not change during a JVM's life.
 */
public final class Transports {

    /** The setting that names the transport, as a JUnit configuration parameter or a JVM system property. */
    public static final String SETTING = "goodput.client.transport";

    /** The name of the transport that sends unless told otherwise: the JDK's client, which needs no dependency. */
    public static final String DEFAULT = JdkTransportProvider.NAME;

    /** The name of the Netty transport, known here so that its absence can be explained. */
    static final String NETTY = "netty";

    /** The dependency that provides {@link #NETTY}. */
    static final String NETTY_DEPENDENCY = "dev.goodput:goodput-transport-netty";

    private Transports() {}

    /** Returns the transport the JVM system property {@value #SETTING} names, or {@value #DEFAULT}. */
    public static String configuredName() {
        String value = System.getProperty(SETTING);
        return value == null || value.isBlank() ? DEFAULT : value.strip();
    }

    /**
     * Opens a transport of {@code provider}, first warming up the read path every transport shares (SSE parsing,
     * chunk decoding, timestamps) once per JVM ({@link ClientWarmUp}), so that no transport has to.
     */
    public static Transport open(TransportProvider provider, ServerEndpoint endpoint, NanoClock clock, ReadTap tap) {
        ClientWarmUp.once();
        return provider.create(endpoint, clock, tap);
    }

    /**
     * Returns the provider of the named transport.
     *
     * @throws InvalidSettingException naming the setting, the value and the transports on the class path
     */
    public static TransportProvider named(String name) {
        TransportProvider provider = Found.PROVIDERS.get(name);
        if (provider != null) {
            return provider;
        }
        if (NETTY.equals(name)) {
            throw InvalidSettingException.of(
                    "transport",
                    name,
                    "needs the dependency " + NETTY_DEPENDENCY
                            + " on the class path: add it next to goodput-core or goodput-junit (the setting " + SETTING
                            + ")");
        }
        throw InvalidSettingException.of(
                "transport",
                name,
                "must name a transport on the class path: one of " + String.join(", ", Found.PROVIDERS.keySet())
                        + " (the setting " + SETTING + ")");
    }

    /** The providers on the class path by name, looked up when first needed. */
    private static final class Found {
        static final Map<String, TransportProvider> PROVIDERS = load();

        private static Map<String, TransportProvider> load() {
            Map<String, TransportProvider> byName = new TreeMap<>();
            for (TransportProvider provider :
                    ServiceLoader.load(TransportProvider.class, Transports.class.getClassLoader())) {
                byName.putIfAbsent(provider.name(), provider);
            }
            // Core's own, even where a class loader hides the service file (a shaded or repackaged jar).
            byName.putIfAbsent(DEFAULT, new JdkTransportProvider());
            return Collections.unmodifiableMap(byName);
        }
    }
}
