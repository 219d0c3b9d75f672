package dev.goodput.junit;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.StartableServer;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One server configuration a {@link ServerVariants} test runs its gate against, under a name that labels its row
 * in the comparison and its report directory. A simulated or startable server is started just before its
 * variant's run and stopped just after, so that variants never share a machine's accelerator or CPU.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public final class ServerVariant {

    private final String name;
    private final MockServerConfig simulated;
    private final StartableServer startable;
    private final ServerEndpoint endpoint;

    private ServerVariant(String name, MockServerConfig simulated, StartableServer startable, ServerEndpoint endpoint) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a server variant's name must not be blank (was "
                    + (name == null ? "null" : "\"" + name + "\"") + ")");
        }
        this.name = name.strip();
        this.simulated = simulated;
        this.startable = startable;
        this.endpoint = endpoint;
    }

    /** Returns a variant that runs Goodput's simulated server with this configuration (its port is chosen free). */
    public static ServerVariant simulated(String name, MockServerConfig config) {
        return new ServerVariant(name, Objects.requireNonNull(config, "config"), null, null);
    }

    /**
     * Returns a variant that runs Goodput's simulated server with this performance model, for example {@code
     * PerformanceModel.preset("tiny-test").withMaxNumSeqs(8)}.
     */
    public static ServerVariant simulated(String name, PerformanceModel model) {
        return simulated(
                name, MockServerConfig.defaults().withPerformanceModel(Objects.requireNonNull(model, "model")));
    }

    /**
     * Returns a variant that starts this server (for example a container from goodput-testcontainers with its own
     * engine arguments) before its run and stops it after; a server already running is used as it is and left
     * running.
     */
    public static ServerVariant of(String name, StartableServer server) {
        return new ServerVariant(name, null, Objects.requireNonNull(server, "server"), null);
    }

    /** Returns a variant that runs against a server someone else started. */
    public static ServerVariant of(String name, ServerEndpoint endpoint) {
        return new ServerVariant(name, null, null, Objects.requireNonNull(endpoint, "endpoint"));
    }

    /** Returns the variant's name, without surrounding blanks. */
    public String name() {
        return name;
    }

    /** Starts the variant's server if it has one to start; closing the returned value stops it. */
    Running start() {
        if (simulated != null) {
            MockServer server = MockServer.start(simulated);
            return new Running(
                    ServerEndpoint.of(server.baseUrl(), server.modelName()),
                    "the simulated server of variant '" + name + "' ("
                            + simulated.performanceModel().name() + ", " + server.baseUrl() + ")",
                    server::close);
        }
        if (startable != null) {
            boolean startedHere = !startable.isRunning();
            if (startedHere) {
                startable.start();
            }
            return new Running(
                    startable.serverEndpoint(),
                    "the server of variant '" + name + "' ("
                            + startable.getClass().getSimpleName() + ")",
                    () -> {
                        if (startedHere && startable.isRunning()) {
                            startable.stop();
                        }
                    });
        }
        return new Running(endpoint, "the endpoint of variant '" + name + "'", () -> {});
    }

    @Override
    public String toString() {
        return "ServerVariant[" + name + "]";
    }

    /** A variant's server while its run lasts. */
    record Running(ServerEndpoint endpoint, String source, Runnable stop) implements AutoCloseable {
        @Override
        public void close() {
            stop.run();
        }
    }
}
