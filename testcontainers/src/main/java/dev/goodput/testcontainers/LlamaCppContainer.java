package dev.goodput.testcontainers;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.StartableServer;
import dev.goodput.testcontainers.internal.WarmUp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.utility.DockerImageName;

/**
 * A real llama.cpp server ({@code llama-server}) in a container, for gating on a CPU runner.
 *
 * <pre>{@code
 * static LlamaCppContainer llama = new LlamaCppContainer()
 *         .withModelFile(Path.of("models/qwen2.5-0.5b-instruct-q4_k_m.gguf"))
 *         .withParallel(4)
 *         .withContextSize(8192)
 *         .withThreads(4);
 * }</pre>
 *
 * <p>The model is a GGUF file on the host, mounted read-only under {@value #MODELS_FOLDER}, or a Hugging Face
 * repository that llama.cpp downloads itself ({@code -hf}) into a cache folder the host may keep between runs.
 * It is ready when {@code /health} answers 200, which llama.cpp does only once the model is loaded, and one
 * warm-up completion has finished. The server's {@code /metrics} endpoint is on unless turned off.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public class LlamaCppContainer extends GenericContainer<LlamaCppContainer> implements StartableServer {

    /** The official image, without a tag. */
    public static final DockerImageName IMAGE = DockerImageName.parse("ghcr.io/ggml-org/llama.cpp");

    /** The tag used when none is given: the CPU server of release v0.5.0, pinned so a gate measures one engine. */
    public static final String DEFAULT_TAG = "server-v0.5.0";

    /** The port llama.cpp listens on inside the container. */
    public static final int PORT = 8080;

    /** Where a model file given with {@link #withModelFile(Path)} is mounted, read-only. */
    public static final String MODELS_FOLDER = "/models";

    static final String CACHE_IN_CONTAINER = "/root/.cache/llama.cpp";

    private final DockerImageName image;
    private Path modelFile;
    private String huggingFaceModel;
    private String alias;
    private final Map<String, String> engineArguments = new LinkedHashMap<>();
    private final List<String> extraArguments = new ArrayList<>();
    private Duration startupTimeout = Duration.ofMinutes(5);
    private Duration warmUpTimeout = Duration.ofMinutes(2);

    /** A container on {@code ghcr.io/ggml-org/llama.cpp:}{@value #DEFAULT_TAG}; give it a model before starting. */
    public LlamaCppContainer() {
        this(IMAGE.withTag(DEFAULT_TAG));
    }

    /**
     * A container on another tag or image whose entrypoint is {@code llama-server}, as in the official {@code
     * server} images; declare another name a substitute: {@code asCompatibleSubstituteFor(IMAGE.asCanonicalNameString())}.
     */
    public LlamaCppContainer(DockerImageName image) {
        super(image);
        image.assertCompatibleWith(IMAGE);
        this.image = image;
        withExposedPorts(PORT);
        engineArguments.put("--metrics", null);
    }

    /**
     * Serves this GGUF file of the host ({@code -m}), mounted read-only as {@value #MODELS_FOLDER}{@code /<its
     * name>}; replaces a Hugging Face model.
     *
     * @throws IllegalArgumentException if there is no such file
     */
    public LlamaCppContainer withModelFile(Path hostFile) {
        if (!Files.isRegularFile(hostFile)) {
            throw new IllegalArgumentException("modelFile must be an existing file, was " + hostFile.toAbsolutePath());
        }
        this.modelFile = hostFile.toAbsolutePath().normalize();
        this.huggingFaceModel = null;
        return self();
    }

    /**
     * Serves a model that llama.cpp downloads from Hugging Face ({@code -hf}, for example {@code
     * "ggml-org/Qwen2.5-0.5B-Instruct-GGUF:Q4_K_M"}); replaces a model file. Keep the download with {@link
     * #withModelCache(Path)}.
     */
    public LlamaCppContainer withHuggingFaceModel(String repository) {
        this.huggingFaceModel = requireText(repository, "huggingFaceModel");
        this.modelFile = null;
        return self();
    }

    /** Mounts a host folder as llama.cpp's download cache, so a Hugging Face model is fetched once per runner. */
    public LlamaCppContainer withModelCache(Path hostFolder) {
        withFileSystemBind(hostFolder.toAbsolutePath().toString(), CACHE_IN_CONTAINER, BindMode.READ_WRITE);
        withEnv("LLAMA_CACHE", CACHE_IN_CONTAINER);
        return self();
    }

    /** Sets the name clients send as {@code model} ({@code --alias}); default the model file's name without {@code .gguf}. */
    public LlamaCppContainer withAlias(String name) {
        this.alias = requireText(name, "alias");
        return self();
    }

    /**
     * Sets how many requests are decoded together, one slot each ({@code --parallel}); more wait in llama.cpp's
     * queue. Left unset, llama.cpp picks 4 slots sharing one unified KV cache.
     */
    public LlamaCppContainer withParallel(int slots) {
        return withEngineArgument("--parallel", positive(slots, "parallel"));
    }

    /**
     * Sets the KV cache's size in tokens ({@code -c}); default the model's training context. With {@link
     * #withParallel(int)} each slot gets an equal share, so a request's prompt plus output must fit in it
     * (unless {@code --kv-unified} is passed as an extra argument).
     */
    public LlamaCppContainer withContextSize(int tokens) {
        return withEngineArgument("-c", positive(tokens, "contextSize"));
    }

    /** Sets the CPU threads used for generation ({@code -t}); on a shared runner, fewer than its cores. */
    public LlamaCppContainer withThreads(int threads) {
        return withEngineArgument("-t", positive(threads, "threads"));
    }

    /** Turns the Prometheus endpoint {@code /metrics} on or off ({@code --metrics}); on by default. */
    public LlamaCppContainer withMetrics(boolean enabled) {
        engineArguments.remove("--metrics");
        if (enabled) {
            engineArguments.put("--metrics", null);
        }
        return self();
    }

    /**
     * Adds any other {@code llama-server} arguments, after the ones set with the other methods, for example
     * {@code "--cache-reuse", "256"} to reuse cached prompt chunks beyond a common prefix.
     */
    public LlamaCppContainer withExtraArguments(String... arguments) {
        for (String argument : arguments) {
            Objects.requireNonNull(argument, "argument");
            if (List.of("--host", "--port", "-m", "--model", "-hf", "--alias").contains(argument)) {
                throw new IllegalArgumentException(argument + " is set by the container; use its own method");
            }
            extraArguments.add(argument);
        }
        return self();
    }

    /** Sets how long loading the model (and downloading it) may take before the start fails (default 5 minutes). */
    @Override
    public LlamaCppContainer withStartupTimeout(Duration timeout) {
        this.startupTimeout = Objects.requireNonNull(timeout, "timeout");
        return self();
    }

    /** Sets how long the single warm-up completion may take (default 2 minutes). */
    public LlamaCppContainer withWarmUpTimeout(Duration timeout) {
        this.warmUpTimeout = Objects.requireNonNull(timeout, "timeout");
        return self();
    }

    /** Returns the image this container runs, as given; unlike {@link #getDockerImageName()} it never pulls. */
    public DockerImageName getImageName() {
        return image;
    }

    /** Returns the name clients send as {@code model}. */
    public String getAlias() {
        if (alias != null || modelFile == null) {
            return alias != null ? alias : huggingFaceModel;
        }
        return modelFile.getFileName().toString().replaceFirst("(?i)\\.gguf$", "");
    }

    /** Returns the server's root URL as seen from the test JVM, for example {@code http://localhost:32768}. */
    public String getBaseUrl() {
        return "http://" + getHost() + ":" + getMappedPort(PORT);
    }

    /**
     * Returns the {@code llama-server} arguments as the container runs them: address, model, alias, the settings
     * in the order first set, then the extra arguments.
     *
     * @throws IllegalStateException if no model is set
     */
    public List<String> getEngineArguments() {
        List<String> arguments = new ArrayList<>(List.of("--host", "0.0.0.0", "--port", Integer.toString(PORT)));
        if (modelFile != null) {
            arguments.addAll(List.of("-m", modelInContainer()));
        } else if (huggingFaceModel != null) {
            arguments.addAll(List.of("-hf", huggingFaceModel));
        } else {
            throw new IllegalStateException("no model: call withModelFile(Path) or withHuggingFaceModel(String)");
        }
        arguments.addAll(List.of("--alias", getAlias()));
        engineArguments.forEach((name, value) -> {
            arguments.add(name);
            if (value != null) {
                arguments.add(value);
            }
        });
        arguments.addAll(extraArguments);
        return List.copyOf(arguments);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The metadata names the image, tag, engine arguments and model ({@code model_file} or {@code
     * huggingface_model}). vLLM's {@code continuous_usage_stats} is not asked for: llama.cpp's request schema
     * knows only {@code stream_options.include_usage} and drops the rest, and it sends usage once, in a last
     * chunk with no choices, which is what Goodput counts output tokens from.
     */
    @Override
    public ServerEndpoint serverEndpoint() {
        if (!isRunning()) {
            throw new IllegalStateException("the llama.cpp container is not running; start it first");
        }
        return endpointAt(getBaseUrl());
    }

    /** The endpoint of a server at this address with this container's settings and metadata. */
    ServerEndpoint endpointAt(String baseUrl) {
        Map<String, Object> metadata = ContainerMetadata.of("llama.cpp", image, getEngineArguments());
        metadata.put(
                modelFile != null ? "model_file" : "huggingface_model",
                modelFile != null ? modelFile.getFileName().toString() : huggingFaceModel);
        return ServerEndpoint.of(baseUrl, getAlias())
                .withContinuousUsageStats(false)
                .withMetadata(metadata);
    }

    @Override
    public boolean isRunning() {
        return super.isRunning();
    }

    @Override
    protected void configure() {
        setCommand(getEngineArguments().toArray(String[]::new));
        if (modelFile != null) {
            withFileSystemBind(modelFile.toString(), modelInContainer(), BindMode.READ_ONLY);
        }
        // Only an HTTP check from outside: a server-only image may have no shell for an in-container probe.
        waitingFor(readiness());
    }

    /** Ready once {@code /health} answers 200: llama.cpp answers 503 while it loads the model. */
    WaitStrategy readiness() {
        return Wait.forHttp("/health").forPort(PORT).forStatusCode(200).withStartupTimeout(startupTimeout);
    }

    @Override
    protected void containerIsStarted(com.github.dockerjava.api.command.InspectContainerResponse containerInfo) {
        WarmUp.completeOneRequest(getBaseUrl(), getAlias(), warmUpTimeout);
    }

    private String modelInContainer() {
        return MODELS_FOLDER + "/" + modelFile.getFileName();
    }

    private LlamaCppContainer withEngineArgument(String name, String value) {
        engineArguments.put(name, value);
        return self();
    }

    private static String positive(int value, String name) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, was " + value);
        }
        return Integer.toString(value);
    }

    private static String requireText(String value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
        return value;
    }
}
