package dev.goodput.mock.internal.http;

import dev.goodput.mock.Faults;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.RequestTruth;
import dev.goodput.mock.internal.engine.InferenceEngine;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** A running mock server: the HTTP loop, the writer lanes, the engine, the ground truth and the metrics. */
public final class ServerRuntime implements AutoCloseable {

    private final MockServerConfig config;
    private final InferenceEngine engine;
    private final ServerMetrics metrics;
    private final GroundTruthLog truthLog;
    private final WriterLanes lanes;
    private final ScheduledExecutorService timer;
    private final long startedEpochSeconds = System.currentTimeMillis() / 1000;
    private final HttpServerLoop loop;

    private ServerRuntime(MockServerConfig config, InferenceEngine engine) {
        this.config = config;
        this.engine = engine;
        this.metrics = new ServerMetrics(config.modelName());
        this.truthLog = new GroundTruthLog(config.groundTruthCapacity(), metrics);
        this.lanes = new WriterLanes(config.writerThreads());
        this.timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "goodput-mock-timer");
            thread.setDaemon(true);
            return thread;
        });
        this.loop = new HttpServerLoop(config.host(), config.port(), config.maxConnections(), new ApiHandler(this));
    }

    /** Starts serving on {@code engine}, which the runtime closes when it closes. */
    public static ServerRuntime start(MockServerConfig config, InferenceEngine engine) {
        try {
            return new ServerRuntime(config, engine);
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    /** Returns the port the server listens on. */
    public int port() {
        return loop.port();
    }

    /** Returns the finished requests' ground truth, oldest first. */
    public List<RequestTruth> groundTruth() {
        return truthLog.snapshot();
    }

    /** Returns how many records were dropped because the ground truth was full. */
    public long droppedGroundTruth() {
        return truthLog.dropped();
    }

    @Override
    public void close() {
        loop.close();
        engine.close();
        lanes.close();
        timer.shutdownNow();
    }

    String modelName() {
        return config.modelName();
    }

    PerformanceModel model() {
        return config.performanceModel();
    }

    Faults faults() {
        return config.faults();
    }

    long seed() {
        return config.seed();
    }

    InferenceEngine engine() {
        return engine;
    }

    ServerMetrics metrics() {
        return metrics;
    }

    GroundTruthLog truthLog() {
        return truthLog;
    }

    WriterLanes lanes() {
        return lanes;
    }

    ScheduledExecutorService timer() {
        return timer;
    }

    long startedEpochSeconds() {
        return startedEpochSeconds;
    }
}
