package dev.goodput.junit;

import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.StartableServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * Finds the server under test of a test method, first match wins: the configuration parameter
 * {@code goodput.server.url}; a server named in code ({@link ServerUnderTest} field, then {@link ServerUrl} on
 * the method, then on the class); {@link SimulatedServer} on the method, then on the class; the simulated server
 * with its default preset. Simulated servers are started at most once per class (per method for a
 * method-level {@code @SimulatedServer}) and closed by JUnit through the store; so is a {@link StartableServer} in a
 * static field (per test instance in an instance field) that was not already running.
 */
final class ServerResolver {

    /** The server a test runs against and where that choice came from. */
    record ResolvedServer(ServerEndpoint endpoint, String source, dev.goodput.mock.MockServer simulated) {}

    private ServerResolver() {}

    static ResolvedServer resolve(ExtensionContext context, GoodputConfiguration configuration) {
        Class<?> testClass = context.getRequiredTestClass();
        Method method = context.getRequiredTestMethod();
        if (configuration.serverUrl().isPresent()) {
            String url = configuration.serverUrl().get();
            ServerEndpoint endpoint = endpoint(
                    url,
                    configuration.serverModel().orElseThrow(),
                    configuration.apiKeyEnv().orElse(""),
                    configuration.apiBasePath().orElse(ServerEndpoint.DEFAULT_API_BASE_PATH),
                    "configuration parameter " + GoodputConfiguration.SERVER_URL);
            return new ResolvedServer(endpoint, "configuration parameter " + GoodputConfiguration.SERVER_URL, null);
        }
        Optional<ResolvedServer> field = fromField(context, testClass);
        if (field.isPresent()) {
            return field.get();
        }
        Optional<ServerUrl> url = GateDefinition.nearest(testClass, method, ServerUrl.class);
        if (url.isPresent()) {
            ServerEndpoint endpoint = endpoint(
                    url.get().value(),
                    url.get().model(),
                    url.get().apiKeyEnv(),
                    url.get().apiBasePath(),
                    "@ServerUrl");
            return new ResolvedServer(endpoint, "@ServerUrl(" + endpoint.shownUrl() + ")", null);
        }
        Optional<SimulatedServer> methodMock = AnnotationSupport.findAnnotation(method, SimulatedServer.class);
        if (methodMock.isPresent()) {
            return simulated(context, methodMock.get(), "@SimulatedServer on " + method.getName() + "()");
        }
        Optional<SimulatedServer> classMock = GateDefinition.nearest(testClass, method, SimulatedServer.class);
        ExtensionContext classContext = context.getParent().orElse(context);
        if (classMock.isPresent()) {
            return simulated(classContext, classMock.get(), "@SimulatedServer on " + testClass.getSimpleName());
        }
        return simulated(classContext, null, "the default simulated server");
    }

    private static ServerEndpoint endpoint(
            String url, String model, String apiKeyEnv, String apiBasePath, String where) {
        try {
            ServerEndpoint endpoint = ServerEndpoint.of(url, model).withApiBasePath(apiBasePath);
            return apiKeyEnv.isBlank() ? endpoint : endpoint.withApiKeyFromEnvironment(apiKeyEnv);
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException(where + ": " + e.getMessage(), e);
        }
    }

    private static Optional<ResolvedServer> fromField(ExtensionContext context, Class<?> testClass) {
        List<Field> fields = AnnotationSupport.findAnnotatedFields(
                testClass, ServerUnderTest.class, field -> true, HierarchyTraversalMode.TOP_DOWN);
        if (fields.isEmpty()) {
            return Optional.empty();
        }
        if (fields.size() > 1) {
            throw new ExtensionConfigurationException("@ServerUnderTest is on " + fields.size() + " fields of "
                    + testClass.getSimpleName() + "; one test class tests one server");
        }
        Field field = fields.get(0);
        String name = "@ServerUnderTest field " + testClass.getSimpleName() + "." + field.getName();
        Object instance = Modifier.isStatic(field.getModifiers())
                ? null
                : context.getTestInstance()
                        .orElseThrow(() -> new ExtensionConfigurationException(
                                name + " is an instance field but there is no test instance; make it static"));
        Object value = ReflectionSupport.tryToReadFieldValue(field, instance)
                .getOrThrow(e -> new ExtensionConfigurationException(name + " cannot be read", e));
        if (value instanceof ServerEndpoint endpoint) {
            return Optional.of(new ResolvedServer(endpoint, name, null));
        }
        if (value instanceof dev.goodput.mock.MockServer mock) {
            return Optional.of(new ResolvedServer(simulatedEndpoint(mock), name, mock));
        }
        if (value instanceof StartableServer startable) {
            // A static field serves the whole class; an instance field lives as long as its test instance.
            ExtensionContext owner = Modifier.isStatic(field.getModifiers())
                    ? context.getParent().orElse(context)
                    : context;
            StartedByExtension started = owner.getStore(GoodputExtension.NAMESPACE)
                    .getOrComputeIfAbsent(
                            "startable-server:" + field.getDeclaringClass().getName() + "." + field.getName(),
                            key -> StartedByExtension.start(startable),
                            StartedByExtension.class);
            return Optional.of(new ResolvedServer(started.endpoint(name), name, null));
        }
        throw new ExtensionConfigurationException(name + " holds "
                + (value == null ? "null" : "a " + value.getClass().getName())
                + "; it must hold a dev.goodput.core.ServerEndpoint, a dev.goodput.mock.MockServer or a"
                + " dev.goodput.core.StartableServer such as a container from goodput-testcontainers");
    }

    private static ResolvedServer simulated(ExtensionContext owner, SimulatedServer annotation, String source) {
        String preset = annotation == null ? SimulatedServer.DEFAULT_PRESET : annotation.preset();
        String model = annotation == null ? "" : annotation.modelName();
        long seed = annotation == null ? 0 : annotation.seed();
        PerformanceModel performance;
        try {
            performance = PerformanceModel.preset(preset);
        } catch (IllegalArgumentException e) {
            throw new ExtensionConfigurationException(
                    "@SimulatedServer(preset = \"" + preset + "\"): " + e.getMessage(), e);
        }
        String key = "simulated-server:" + preset + ":" + model + ":" + seed;
        ExtensionContext.Store store = owner.getStore(GoodputExtension.NAMESPACE);
        StartedServer started = store.getOrComputeIfAbsent(
                key,
                ignored -> {
                    MockServerConfig config = MockServerConfig.defaults()
                            .withPerformanceModel(performance)
                            .withSeed(seed);
                    if (!model.isBlank()) {
                        config = config.withModelName(model);
                    }
                    return new StartedServer(dev.goodput.mock.MockServer.start(config));
                },
                StartedServer.class);
        dev.goodput.mock.MockServer server = started.server();
        return new ResolvedServer(
                simulatedEndpoint(server), source + " (preset " + preset + ", " + server.baseUrl() + ")", server);
    }

    /**
     * Returns the endpoint of a simulated server, with its performance model's name as metadata: it is part of the
     * server's identity, so a baseline recorded against another preset is refused as INVALID.
     */
    static ServerEndpoint simulatedEndpoint(dev.goodput.mock.MockServer server) {
        java.util.Map<String, Object> metadata = new java.util.LinkedHashMap<>();
        metadata.put(
                "simulated_performance_model",
                server.config().performanceModel().name());
        return ServerEndpoint.of(server.baseUrl(), server.modelName()).withMetadata(metadata);
    }

    /**
     * A startable server (a container) kept in the store: started when first needed, stopped by JUnit when its
     * scope ends, unless it was already running, in which case whoever started it stops it. A server that failed
     * to start is tried once per scope, not once per test: a vLLM start can take many minutes to time out.
     */
    @SuppressWarnings("deprecation")
    record StartedByExtension(StartableServer server, boolean stopWhenDone, RuntimeException failure)
            implements ExtensionContext.Store.CloseableResource, AutoCloseable {

        /** Starts the server, or remembers why it did not start so that later tests fail at once, not after a timeout. */
        static StartedByExtension start(StartableServer server) {
            if (server.isRunning()) {
                return new StartedByExtension(server, false, null);
            }
            try {
                server.start();
                return new StartedByExtension(server, true, null);
            } catch (RuntimeException e) {
                return new StartedByExtension(server, true, e);
            }
        }

        ServerEndpoint endpoint(String name) {
            if (failure != null) {
                throw new IllegalStateException(name + " did not start: " + failure.getMessage(), failure);
            }
            return server.serverEndpoint();
        }

        @Override
        public void close() {
            if (stopWhenDone && server.isRunning()) {
                server.stop();
            }
        }
    }

    /**
     * A simulated server kept in the store; JUnit closes it when its scope ends. Both closing contracts are
     * implemented because JUnit 5 and 6 differ in which one they call; closing twice does nothing.
     */
    @SuppressWarnings("deprecation")
    record StartedServer(dev.goodput.mock.MockServer server)
            implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        @Override
        public void close() {
            server.close();
        }
    }
}
