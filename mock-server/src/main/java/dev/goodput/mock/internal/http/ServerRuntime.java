package dev.goodput.mock.internal.http;

import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.RequestTruth;
import dev.goodput.mock.internal.engine.InferenceEngine;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/** A running mock server: the HTTP loop, the writer lanes, the engine, the ground truth and the metrics. */
public final class ServerRuntime implements AutoCloseable {

    private final ServerContext context;
    private final ServerReset reset;
    private final HttpServerLoop loop;

    private ServerRuntime(MockServerConfig config, InferenceEngine engine) {
        GpuTelemetry gpu = new GpuTelemetry(
                config.simulatedMetrics(), System.nanoTime(), engine.snapshot().busyNanos());
        ServerMetrics metrics = new ServerMetrics(config, gpu);
        engine.observeQueueTimes(metrics::observeQueueNanos);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "goodput-mock-timer");
            thread.setDaemon(true);
            return thread;
        });
        this.context = new ServerContext(
                config,
                engine,
                metrics,
                new GroundTruthLog(config.groundTruthCapacity(), metrics),
                new WriterLanes(config.writerThreads()),
                timer,
                System.currentTimeMillis() / 1000,
                new AtomicLong());
        this.reset = new ServerReset(context);
        // The GPU's power is integrated between samples; sampling between scrapes keeps its utilisation recent.
        timer.scheduleAtFixedRate(
                () -> gpu.sample(System.nanoTime(), engine.snapshot().busyNanos()),
                GpuTelemetry.SAMPLE_PERIOD_MILLIS,
                GpuTelemetry.SAMPLE_PERIOD_MILLIS,
                TimeUnit.MILLISECONDS);
        this.loop = new HttpServerLoop(
                config.host(), config.port(), config.maxConnections(), new ApiHandler(context, reset));
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
        return context.truthLog().snapshot();
    }

    /** Returns how many records were dropped because the ground truth was full. */
    public long droppedGroundTruth() {
        return context.truthLog().dropped();
    }

    /** Waits until no request is being served, then brings the server back to its state at start ({@link ServerReset}). */
    public void reset(Duration timeout) throws TimeoutException, InterruptedException {
        reset.reset(timeout);
    }

    @Override
    public void close() {
        loop.close();
        context.engine().close();
        context.lanes().close();
        context.timer().shutdownNow();
    }
}
