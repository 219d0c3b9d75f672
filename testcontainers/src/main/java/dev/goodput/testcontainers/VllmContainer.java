package dev.goodput.testcontainers;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.github.dockerjava.api.model.DeviceRequest;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.StartableServer;
import dev.goodput.testcontainers.internal.WarmUp;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.apiguardian.api.API;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.containers.wait.strategy.WaitStrategy;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.utility.DockerImageName;

/**
 * A real vLLM server ({@code vllm serve}) in a container, for gating on a GPU runner.
 *
 * <pre>{@code
 * static VllmContainer vllm = new VllmContainer("Qwen/Qwen2.5-0.5B-Instruct")
 *         .withMaxModelLen(4096)
 *         .withGpus();
 * }</pre>
 *
 * <p>It is ready when {@code /v1/models} lists the served model and one warm-up completion has finished, so
 * model loading, compilation and CUDA-graph capture never land in a measurement. The Hugging Face token is read
 * from the test JVM's {@code HF_TOKEN} variable and handed to vLLM as a file ({@code HF_TOKEN_PATH}), never as a
 * container environment variable: Testcontainers' Docker client logs the whole create command, environment
 * included, at debug level.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public class VllmContainer extends GenericContainer<VllmContainer> implements StartableServer {

    /** The official image, without a tag. */
    public static final DockerImageName IMAGE = DockerImageName.parse("vllm/vllm-openai");

    /** The tag used when none is given; pinned so that a gate measures the same engine from run to run. */
    public static final String DEFAULT_TAG = "v0.11.0";

    /** The port vLLM listens on inside the container. */
    public static final int PORT = 8000;

    static final String CACHE_IN_CONTAINER = "/root/.cache/huggingface";
    static final String TOKEN_FILE_IN_CONTAINER = "/run/secrets/hf_token";

    private final DockerImageName image;
    private final String model;
    private String servedModelName;
    private final Map<String, String> engineArguments = new LinkedHashMap<>();
    private final List<String> extraArguments = new ArrayList<>();
    private boolean gpusRequested;
    private String tokenVariable = "HF_TOKEN";
    private UnaryOperator<String> environment = System::getenv;
    private Duration startupTimeout = Duration.ofMinutes(20);
    private Duration warmUpTimeout = Duration.ofMinutes(5);

    /** Serves {@code model} (a Hugging Face id or a path in the container) with {@code vllm/vllm-openai:}{@value #DEFAULT_TAG}. */
    public VllmContainer(String model) {
        this(IMAGE.withTag(DEFAULT_TAG), model);
    }

    /** Serves {@code model} with the given image, for example another tag or a mirror of {@code vllm/vllm-openai}. */
    public VllmContainer(DockerImageName image, String model) {
        super(image);
        image.assertCompatibleWith(IMAGE);
        Objects.requireNonNull(model, "model");
        if (model.isBlank()) {
            throw new IllegalArgumentException("model must not be blank");
        }
        this.model = model;
        this.image = image;
        withExposedPorts(PORT);
        // PyTorch's worker processes share tensors through /dev/shm; the default 64 MiB is far too small.
        withSharedMemorySize(8L * 1024 * 1024 * 1024);
    }

    /** Sets the name clients send as {@code model} ({@code --served-model-name}); default the model itself. */
    public VllmContainer withServedModelName(String name) {
        this.servedModelName = requireText(name, "servedModelName");
        return self();
    }

    /** Sets the context limit, prompt plus output tokens ({@code --max-model-len}). */
    public VllmContainer withMaxModelLen(int tokens) {
        return withEngineArgument("--max-model-len", positive(tokens, "maxModelLen"));
    }

    /** Sets the fraction of GPU memory vLLM may use, weights and KV cache ({@code --gpu-memory-utilization}). */
    public VllmContainer withGpuMemoryUtilization(double fraction) {
        if (!(fraction > 0 && fraction <= 1)) {
            throw new IllegalArgumentException("gpuMemoryUtilization must be in (0, 1], was " + fraction);
        }
        return withEngineArgument("--gpu-memory-utilization", Double.toString(fraction));
    }

    /** Sets the most sequences in a running batch ({@code --max-num-seqs}). */
    public VllmContainer withMaxNumSeqs(int sequences) {
        return withEngineArgument("--max-num-seqs", positive(sequences, "maxNumSeqs"));
    }

    /** Sets the token budget of one engine step ({@code --max-num-batched-tokens}). */
    public VllmContainer withMaxNumBatchedTokens(int tokens) {
        return withEngineArgument("--max-num-batched-tokens", positive(tokens, "maxNumBatchedTokens"));
    }

    /** Turns automatic prefix caching on or off ({@code --enable-prefix-caching} / {@code --no-enable-prefix-caching}). */
    public VllmContainer withPrefixCaching(boolean enabled) {
        engineArguments.remove("--enable-prefix-caching");
        engineArguments.remove("--no-enable-prefix-caching");
        engineArguments.put(enabled ? "--enable-prefix-caching" : "--no-enable-prefix-caching", null);
        return self();
    }

    /**
     * Starts with random weights ({@code --load-format dummy}): timing is realistic, text is garbage, so send
     * workloads with {@code ignore_eos} and a fixed output length. The model's config and tokenizer are still
     * downloaded.
     */
    public VllmContainer withDummyWeights() {
        return withEngineArgument("--load-format", "dummy");
    }

    /** Adds any other {@code vllm serve} arguments, after the ones set with the other methods. */
    public VllmContainer withExtraArguments(String... arguments) {
        for (String argument : arguments) {
            extraArguments.add(Objects.requireNonNull(argument, "argument"));
        }
        return self();
    }

    /**
     * Mounts a host folder as vLLM's Hugging Face cache, so that weights are downloaded once per runner rather
     * than once per test run. CI caches (GitHub Actions' {@code actions/cache}, GitLab's {@code cache:}) keep it.
     */
    public VllmContainer withHuggingFaceCache(Path hostFolder) {
        withFileSystemBind(hostFolder.toAbsolutePath().toString(), CACHE_IN_CONTAINER, BindMode.READ_WRITE);
        return self();
    }

    /** Reads the Hugging Face token from another environment variable of the test JVM (default {@code HF_TOKEN}). */
    public VllmContainer withHuggingFaceTokenFrom(String variable) {
        this.tokenVariable = requireText(variable, "variable");
        return self();
    }

    /**
     * Asks the engine for every GPU of the host (a Docker device request, like {@code docker run --gpus all}).
     * Off by default, so that a misconfigured runner fails loudly instead of loading a model on no GPU.
     */
    public VllmContainer withGpus() {
        if (!gpusRequested) {
            gpusRequested = true;
            withCreateContainerCmdModifier(command -> command.getHostConfig()
                    .withDeviceRequests(List.of(new DeviceRequest()
                            .withCapabilities(List.of(List.of("gpu")))
                            .withCount(-1))));
        }
        return self();
    }

    /** Sets how long loading, compiling and capturing may take before the start fails (default 20 minutes). */
    @Override
    public VllmContainer withStartupTimeout(Duration timeout) {
        this.startupTimeout = Objects.requireNonNull(timeout, "timeout");
        return self();
    }

    /** Sets how long the single warm-up completion may take (default 5 minutes). */
    public VllmContainer withWarmUpTimeout(Duration timeout) {
        this.warmUpTimeout = Objects.requireNonNull(timeout, "timeout");
        return self();
    }

    /** Replaces where environment variables are read from; for tests that cannot set real ones. */
    @API(status = API.Status.INTERNAL, since = "0.1")
    public VllmContainer withEnvironment(UnaryOperator<String> value) {
        this.environment = Objects.requireNonNull(value, "environment");
        return self();
    }

    /** Returns the image this container runs, as given; unlike {@link #getDockerImageName()} it never pulls. */
    public DockerImageName getImageName() {
        return image;
    }

    /** Returns the model vLLM loads. */
    public String getModel() {
        return model;
    }

    /** Returns the name clients send as {@code model}. */
    public String getServedModelName() {
        return servedModelName == null ? model : servedModelName;
    }

    /** Returns the server's root URL as seen from the test JVM, for example {@code http://localhost:32768}. */
    public String getBaseUrl() {
        return "http://" + getHost() + ":" + getMappedPort(PORT);
    }

    /** Returns the {@code vllm serve} arguments, model first, as the container runs them. */
    public List<String> getEngineArguments() {
        List<String> arguments = new ArrayList<>();
        arguments.add("--model");
        arguments.add(model);
        if (servedModelName != null) {
            arguments.add("--served-model-name");
            arguments.add(servedModelName);
        }
        engineArguments.forEach((name, value) -> {
            arguments.add(name);
            if (value != null) {
                arguments.add(value);
            }
        });
        arguments.addAll(extraArguments);
        return List.copyOf(arguments);
    }

    /** Returns whether GPUs are requested. */
    public boolean isGpusRequested() {
        return gpusRequested;
    }

    @Override
    public ServerEndpoint serverEndpoint() {
        if (!isRunning()) {
            throw new IllegalStateException("the vLLM container is not running; start it first");
        }
        return ServerEndpoint.of(getBaseUrl(), getServedModelName())
                .withMetadata(ContainerMetadata.of("vllm", image, getEngineArguments()));
    }

    @Override
    public boolean isRunning() {
        return super.isRunning();
    }

    @Override
    protected void configure() {
        setCommand(getEngineArguments().toArray(String[]::new));
        waitingFor(readiness());
        String token = environment.apply(tokenVariable);
        if (token != null && !token.isBlank()) {
            withCopyToContainer(
                    Transferable.of(token.strip().getBytes(StandardCharsets.UTF_8), 0400), TOKEN_FILE_IN_CONTAINER);
            withEnv("HF_TOKEN_PATH", TOKEN_FILE_IN_CONTAINER);
        }
    }

    /** Ready once {@code /v1/models} answers 200 and names the served model. */
    WaitStrategy readiness() {
        String served = getServedModelName();
        return Wait.forHttp("/v1/models")
                .forPort(PORT)
                .forStatusCode(200)
                .forResponsePredicate(body -> body.contains("\"" + served + "\""))
                .withStartupTimeout(startupTimeout);
    }

    @Override
    protected WaitStrategy getWaitStrategy() {
        return super.getWaitStrategy(); // visible to this package's tests
    }

    @Override
    protected void containerIsStarted(com.github.dockerjava.api.command.InspectContainerResponse containerInfo) {
        WarmUp.completeOneRequest(getBaseUrl(), getServedModelName(), warmUpTimeout);
    }

    private VllmContainer withEngineArgument(String name, String value) {
        engineArguments.put(name, value);
        return self();
    }

    private static String positive(int value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
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
