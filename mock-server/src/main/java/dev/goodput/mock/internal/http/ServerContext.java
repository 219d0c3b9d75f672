package dev.goodput.mock.internal.http;

import dev.goodput.mock.Faults;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.internal.engine.InferenceEngine;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the request handlers share while a server runs: its configuration, engine, metrics, ground truth, writer
 * lanes and timer. {@link ServerRuntime} builds it and owns the lifecycle; the handlers see only this, so they
 * never depend on the runtime that creates them.
 *
 * @param requestPositions the next generation request's position since the start or the last reset: it draws the
 *     request's fault and, without a seed or temperature 0, its output words, so a reset server repeats them
 */
record ServerContext(
        MockServerConfig config,
        InferenceEngine engine,
        ServerMetrics metrics,
        GroundTruthLog truthLog,
        WriterLanes lanes,
        ScheduledExecutorService timer,
        long startedEpochSeconds,
        AtomicLong requestPositions) {

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
}
