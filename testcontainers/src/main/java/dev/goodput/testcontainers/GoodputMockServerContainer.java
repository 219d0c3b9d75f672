package dev.goodput.testcontainers;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.StartableServer;
import dev.goodput.mock.Fault;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.testcontainers.internal.ServerClasspath;
import dev.goodput.testcontainers.internal.WarmUp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

/**
 * Goodput's simulated vLLM server in a container: the same endpoints, stream format and continuous-batching
 * timing as the embedded one, for runners that have a container engine and want the server out of the test JVM.
 *
 * <pre>{@code
 * static GoodputMockServerContainer server = new GoodputMockServerContainer()
 *         .withPreset("h100-llama3-8b")
 *         .withFault(Fault.HTTP_503, 0.01);
 * }</pre>
 *
 * <p>The container runs the mock server's command line ({@code java -jar goodput-mock-server.jar} and its
 * options) on a JRE image: {@value #DEFAULT_BASE_IMAGE} unless the environment variable {@value
 * #BASE_IMAGE_VARIABLE} or the system property {@value #BASE_IMAGE_PROPERTY} names another, for example a local
 * image on a runner that cannot pull. The server's code is copied in from the test's classpath, or from a
 * runnable jar given with {@link #withServerJar(Path)}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public class GoodputMockServerContainer extends GenericContainer<GoodputMockServerContainer>
        implements StartableServer {

    /** The JRE image used when nothing else is configured. */
    public static final String DEFAULT_BASE_IMAGE = "eclipse-temurin:17-jre";

    /** The environment variable that names another base image. */
    public static final String BASE_IMAGE_VARIABLE = "GOODPUT_MOCK_SERVER_BASE_IMAGE";

    /** The system property that names another base image; it wins over the environment variable. */
    public static final String BASE_IMAGE_PROPERTY = "goodput.mock-server.base-image";

    /** The port the server listens on inside the container, vLLM's. */
    public static final int PORT = 8000;

    /**
     * The path that resets the server to the state it started in (empty prefix and KV cache, zeroed counters). The
     * JUnit extension posts to it before each trial of a gate with {@code @Trials}; the container itself is not
     * restarted between trials.
     */
    public static final String RESET_PATH = "/debug/reset";

    static final String APP_FOLDER = "/goodput";

    private final DockerImageName baseImage;
    private final Map<String, String> serverOptions = new LinkedHashMap<>();
    private Path serverJar;

    /** A container on the configured base image (see the class description). */
    public GoodputMockServerContainer() {
        this(DockerImageName.parse(configuredBaseImage()));
    }

    /** A container on the given JRE image; it needs {@code java} (17 or newer) on its {@code PATH}. */
    public GoodputMockServerContainer(DockerImageName baseImage) {
        super(baseImage);
        this.baseImage = baseImage;
        withExposedPorts(PORT);
    }

    /** Names the performance preset ({@code --preset}); see {@link PerformanceModel#presetNames()}. */
    public GoodputMockServerContainer withPreset(String preset) {
        PerformanceModel.preset(preset); // fail here, not in the container, on an unknown name
        serverOptions.remove("fixed-ttft-ms");
        serverOptions.remove("fixed-tpot-ms");
        return withOption("preset", preset);
    }

    /** Replaces the preset with constant timings ({@code --fixed-ttft-ms}, {@code --fixed-tpot-ms}). */
    public GoodputMockServerContainer withFixedTimings(Duration timeToFirstToken, Duration timePerOutputToken) {
        serverOptions.remove("preset");
        withOption("fixed-ttft-ms", Double.toString(timeToFirstToken.toNanos() / 1e6));
        return withOption("fixed-tpot-ms", Double.toString(timePerOutputToken.toNanos() / 1e6));
    }

    /** Sets the served model name ({@code --model}). */
    public GoodputMockServerContainer withModelName(String name) {
        return withOption("model", name);
    }

    /** Sets the most sequences in the running batch ({@code --max-num-seqs}). */
    public GoodputMockServerContainer withMaxNumSeqs(int sequences) {
        return withOption("max-num-seqs", Integer.toString(sequences));
    }

    /** Sets the token budget per engine step ({@code --max-num-batched-tokens}). */
    public GoodputMockServerContainer withMaxNumBatchedTokens(int tokens) {
        return withOption("max-num-batched-tokens", Integer.toString(tokens));
    }

    /** Sets the context limit ({@code --max-model-len}). */
    public GoodputMockServerContainer withMaxModelLen(int tokens) {
        return withOption("max-model-len", Integer.toString(tokens));
    }

    /** Turns prefix caching on or off ({@code --enable-prefix-caching} / {@code --no-enable-prefix-caching}). */
    public GoodputMockServerContainer withPrefixCaching(boolean enabled) {
        serverOptions.remove("enable-prefix-caching");
        serverOptions.remove("no-enable-prefix-caching");
        serverOptions.put(enabled ? "enable-prefix-caching" : "no-enable-prefix-caching", null);
        return self();
    }

    /** Sets the seed of the model's draws, outputs and faults ({@code --seed}). */
    public GoodputMockServerContainer withSeed(long seed) {
        return withOption("seed", Long.toString(seed));
    }

    /** Injects a fault into the given fraction of requests ({@code --fault-<name> rate}). */
    public GoodputMockServerContainer withFault(Fault fault, double rate) {
        if (fault == Fault.NONE) {
            throw new IllegalArgumentException("Fault.NONE is not a fault to inject");
        }
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("a fault rate must be in [0, 1], was " + rate);
        }
        return withOption("fault-" + fault.cliName(), Double.toString(rate));
    }

    /** Sets how long a stall fault pauses a stream ({@code --fault-stall-ms}). */
    public GoodputMockServerContainer withStallDuration(Duration stall) {
        return withOption("fault-stall-ms", Long.toString(stall.toMillis()));
    }

    /** Sets the {@code Retry-After} of 429 and 503 faults ({@code --fault-retry-after}). */
    public GoodputMockServerContainer withRetryAfter(Duration retryAfter) {
        return withOption("fault-retry-after", Long.toString(retryAfter.toSeconds()));
    }

    /** Adds any other option of the mock server's command line, by its name without {@code --}. */
    public GoodputMockServerContainer withOption(String name, String value) {
        Objects.requireNonNull(name, "name");
        if (name.equals("host") || name.equals("port")) {
            throw new IllegalArgumentException("--" + name + " is set by the container");
        }
        serverOptions.put(name, Objects.requireNonNull(value, "value"));
        return self();
    }

    /** Runs this runnable jar ({@code java -jar}), for example {@code mock-server/target/goodput-mock-server.jar}. */
    public GoodputMockServerContainer withServerJar(Path runnableJar) {
        if (!Files.isRegularFile(runnableJar)) {
            throw new IllegalArgumentException("no runnable jar at " + runnableJar.toAbsolutePath());
        }
        this.serverJar = runnableJar;
        return self();
    }

    /** Returns the JRE image this container runs on, as given; unlike {@link #getDockerImageName()} it never pulls. */
    public DockerImageName getBaseImage() {
        return baseImage;
    }

    /** Returns the served model name. */
    public String getModelName() {
        return serverOptions.getOrDefault("model", MockServerConfig.DEFAULT_MODEL_NAME);
    }

    /** Returns the server's root URL as seen from the test JVM, for example {@code http://localhost:32768}. */
    public String getBaseUrl() {
        return "http://" + getHost() + ":" + getMappedPort(PORT);
    }

    /** Returns the mock server's options as its command line takes them, {@code --host} and {@code --port} first. */
    public List<String> getServerArguments() {
        List<String> arguments = new ArrayList<>(List.of("--host", "0.0.0.0", "--port", Integer.toString(PORT)));
        serverOptions.forEach((name, value) -> {
            arguments.add("--" + name);
            if (value != null) {
                arguments.add(value);
            }
        });
        return List.copyOf(arguments);
    }

    @Override
    public ServerEndpoint serverEndpoint() {
        if (!isRunning()) {
            throw new IllegalStateException("the mock server container is not running; start it first");
        }
        return ServerEndpoint.of(getBaseUrl(), getModelName())
                .withMetadata(ContainerMetadata.of("goodput-mock-server", baseImage, getServerArguments()));
    }

    @Override
    public boolean isRunning() {
        return super.isRunning();
    }

    @Override
    protected void configure() {
        List<String> command = new ArrayList<>(List.of("java"));
        if (serverJar != null) {
            withCopyFileToContainer(MountableFile.forHostPath(serverJar), APP_FOLDER + "/goodput-mock-server.jar");
            command.addAll(List.of("-jar", APP_FOLDER + "/goodput-mock-server.jar"));
        } else {
            List<String> classpath = new ArrayList<>();
            List<Path> entries = ServerClasspath.entries();
            for (int i = 0; i < entries.size(); i++) {
                String inContainer =
                        APP_FOLDER + "/lib/" + i + "-" + entries.get(i).getFileName();
                withCopyFileToContainer(MountableFile.forHostPath(entries.get(i)), inContainer);
                classpath.add(inContainer);
            }
            command.addAll(List.of("-cp", String.join(":", classpath), ServerClasspath.MAIN_CLASS));
        }
        command.addAll(getServerArguments());
        setCommand(command.toArray(String[]::new));
        // Only an HTTP check from outside: a JRE-only image has no shell for Testcontainers' in-container probe.
        waitingFor(
                Wait.forHttp("/v1/models").forPort(PORT).forStatusCode(200).withStartupTimeout(Duration.ofMinutes(2)));
    }

    @Override
    protected void containerIsStarted(com.github.dockerjava.api.command.InspectContainerResponse containerInfo) {
        WarmUp.completeOneRequest(getBaseUrl(), getModelName(), Duration.ofSeconds(30));
    }

    static String configuredBaseImage() {
        return Optional.ofNullable(System.getProperty(BASE_IMAGE_PROPERTY))
                .or(() -> Optional.ofNullable(System.getenv(BASE_IMAGE_VARIABLE)))
                .filter(name -> !name.isBlank())
                .orElse(DEFAULT_BASE_IMAGE);
    }
}
