package dev.goodput.mock;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * How to start a {@link MockServer}: where it listens, the model it claims to serve, its performance model and
 * faults, and its limits.
 *
 * <p>Immutable and validated on every change: a bad value throws {@link IllegalArgumentException} naming the
 * field and the value. Build one with {@link #builder()} or change the {@linkplain #defaults() defaults} with
 * {@code withX} methods.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class MockServerConfig {

    /** The default model name the server claims to serve. */
    public static final String DEFAULT_MODEL_NAME = "goodput/mock-llama-3-8b";

    private final String host;
    private final int port;
    private final String modelName;
    private final PerformanceModel performanceModel;
    private final Faults faults;
    private final int maxConnections;
    private final int groundTruthCapacity;
    private final int writerThreads;
    private final long seed;
    private final SimulatedMetrics simulatedMetrics;

    private MockServerConfig(Builder b) {
        this.host = requireText("host", b.host);
        if (b.port < 0 || b.port > 65535) {
            throw new IllegalArgumentException("port must be in 0..65535 (0 = a free port), was " + b.port);
        }
        this.port = b.port;
        this.modelName = requireText("modelName", b.modelName);
        this.performanceModel = Objects.requireNonNull(b.performanceModel, "performanceModel must not be null");
        this.faults = Objects.requireNonNull(b.faults, "faults must not be null");
        this.maxConnections = atLeast("maxConnections", b.maxConnections, 1);
        this.groundTruthCapacity = atLeast("groundTruthCapacity", b.groundTruthCapacity, 1);
        this.writerThreads = atLeast("writerThreads", b.writerThreads, 0);
        if (writerThreads > 64) {
            throw new IllegalArgumentException("writerThreads must be at most 64, was " + writerThreads);
        }
        this.seed = b.seed;
        this.simulatedMetrics = Objects.requireNonNull(b.simulatedMetrics, "simulatedMetrics must not be null");
    }

    /** Returns the defaults: 127.0.0.1, a free port, the default model name and performance preset, no faults. */
    public static MockServerConfig defaults() {
        return builder().build();
    }

    /** Returns a builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Returns a builder starting from this configuration. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.host = host;
        b.port = port;
        b.modelName = modelName;
        b.performanceModel = performanceModel;
        b.faults = faults;
        b.maxConnections = maxConnections;
        b.groundTruthCapacity = groundTruthCapacity;
        b.writerThreads = writerThreads;
        b.seed = seed;
        b.simulatedMetrics = simulatedMetrics;
        return b;
    }

    /** Returns a copy listening on {@code host} (an address or name; default 127.0.0.1, loopback only). */
    public MockServerConfig withHost(String host) {
        return toBuilder().host(host).build();
    }

    /** Returns a copy listening on {@code port} (0 = a free port, the default). */
    public MockServerConfig withPort(int port) {
        return toBuilder().port(port).build();
    }

    /** Returns a copy serving the model named {@code modelName}; requests for other names get 404. */
    public MockServerConfig withModelName(String modelName) {
        return toBuilder().modelName(modelName).build();
    }

    /** Returns a copy whose timing comes from {@code performanceModel}. */
    public MockServerConfig withPerformanceModel(PerformanceModel performanceModel) {
        return toBuilder().performanceModel(performanceModel).build();
    }

    /** Returns a copy injecting {@code faults}. */
    public MockServerConfig withFaults(Faults faults) {
        return toBuilder().faults(faults).build();
    }

    /** Returns a copy accepting at most {@code maxConnections} open connections (more are refused). */
    public MockServerConfig withMaxConnections(int maxConnections) {
        return toBuilder().maxConnections(maxConnections).build();
    }

    /** Returns a copy keeping at most {@code groundTruthCapacity} request records (the oldest are dropped). */
    public MockServerConfig withGroundTruthCapacity(int groundTruthCapacity) {
        return toBuilder().groundTruthCapacity(groundTruthCapacity).build();
    }

    /**
     * Returns a copy with {@code writerThreads} threads encoding and writing stream chunks; 0 (the default)
     * writes each chunk on the engine thread that emits it. Socket writes never block either way (what a socket
     * doesn't take is queued and flushed by the server loop); writing on the engine thread saves a thread hand-off
     * per chunk, which measured an order of magnitude less send jitter on a small machine.
     */
    public MockServerConfig withWriterThreads(int writerThreads) {
        return toBuilder().writerThreads(writerThreads).build();
    }

    /** Returns a copy whose outputs for requests without {@code seed} are drawn from {@code seed}. */
    public MockServerConfig withSeed(long seed) {
        return toBuilder().seed(seed).build();
    }

    /** Returns a copy whose {@code /metrics} adds what {@code simulatedMetrics} says (GPU power, old names). */
    public MockServerConfig withSimulatedMetrics(SimulatedMetrics simulatedMetrics) {
        return toBuilder().simulatedMetrics(simulatedMetrics).build();
    }

    /** Returns the host to listen on. */
    public String host() {
        return host;
    }

    /** Returns the port to listen on, 0 for a free one. */
    public int port() {
        return port;
    }

    /** Returns the served model's name. */
    public String modelName() {
        return modelName;
    }

    /** Returns the performance model. */
    public PerformanceModel performanceModel() {
        return performanceModel;
    }

    /** Returns the faults to inject. */
    public Faults faults() {
        return faults;
    }

    /** Returns the most open connections. */
    public int maxConnections() {
        return maxConnections;
    }

    /** Returns the most request records kept. */
    public int groundTruthCapacity() {
        return groundTruthCapacity;
    }

    /** Returns the number of chunk writer threads, 0 when chunks are written on the engine's thread. */
    public int writerThreads() {
        return writerThreads;
    }

    /** Returns the seed of outputs for requests without their own seed. */
    public long seed() {
        return seed;
    }

    /** Returns what {@code /metrics} exports besides vLLM's current series. */
    public SimulatedMetrics simulatedMetrics() {
        return simulatedMetrics;
    }

    @Override
    public String toString() {
        return "MockServerConfig{host=" + host + ", port=" + port + ", modelName=" + modelName
                + ", performanceModel=" + performanceModel.name() + ", faults=" + faults + ", maxConnections="
                + maxConnections + ", groundTruthCapacity=" + groundTruthCapacity + ", writerThreads="
                + writerThreads + ", seed=" + seed + ", simulatedMetrics=" + simulatedMetrics + "}";
    }

    private static String requireText(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(
                    field + " must not be blank, was " + (value == null ? "null" : "'" + value + "'"));
        }
        return value;
    }

    private static int atLeast(String field, int value, int minimum) {
        if (value < minimum) {
            throw new IllegalArgumentException(field + " must be at least " + minimum + ", was " + value);
        }
        return value;
    }

    /** Builds a {@link MockServerConfig}; {@link #build()} validates. */
    @API(status = EXPERIMENTAL, since = "0.1")
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 0;
        private String modelName = DEFAULT_MODEL_NAME;
        private PerformanceModel performanceModel = PerformanceModel.defaultModel();
        private Faults faults = Faults.none();
        private int maxConnections = 4096;
        private int groundTruthCapacity = 10_000;
        private int writerThreads = 0;
        private long seed = 0;
        private SimulatedMetrics simulatedMetrics = SimulatedMetrics.defaults();

        private Builder() {}

        /** Sets the host to listen on (default 127.0.0.1). */
        public Builder host(String host) {
            this.host = host;
            return this;
        }

        /** Sets the port (default 0, a free port). */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** Sets the served model's name (default {@value MockServerConfig#DEFAULT_MODEL_NAME}). */
        public Builder modelName(String modelName) {
            this.modelName = modelName;
            return this;
        }

        /** Sets the performance model (default {@link PerformanceModel#defaultModel()}). */
        public Builder performanceModel(PerformanceModel performanceModel) {
            this.performanceModel = performanceModel;
            return this;
        }

        /** Sets the faults (default none). */
        public Builder faults(Faults faults) {
            this.faults = faults;
            return this;
        }

        /** Sets the most open connections (default 4096). */
        public Builder maxConnections(int maxConnections) {
            this.maxConnections = maxConnections;
            return this;
        }

        /** Sets the most request records kept (default 10,000). */
        public Builder groundTruthCapacity(int groundTruthCapacity) {
            this.groundTruthCapacity = groundTruthCapacity;
            return this;
        }

        /** Sets the number of chunk writer threads (default 0: chunks are written on the engine's thread). */
        public Builder writerThreads(int writerThreads) {
            this.writerThreads = writerThreads;
            return this;
        }

        /** Sets the seed of outputs for requests without their own seed (default 0). */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Sets what {@code /metrics} adds (default {@link SimulatedMetrics#defaults()}). */
        public Builder simulatedMetrics(SimulatedMetrics simulatedMetrics) {
            this.simulatedMetrics = simulatedMetrics;
            return this;
        }

        /** Returns the validated configuration. */
        public MockServerConfig build() {
            return new MockServerConfig(this);
        }
    }
}
