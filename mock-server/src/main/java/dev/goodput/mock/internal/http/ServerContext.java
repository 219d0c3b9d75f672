package dev.goodput.mock.internal.http;

import dev.goodput.mock.Faults;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.internal.engine.InferenceEngine;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What the request handlers share while a server runs: its configuration, engine, metrics, ground truth, writer
 * lanes and timer. {@link ServerRuntime} builds it and owns the lifecycle; the handlers see only this, so they
 * never depend on the runtime that creates them.
 */
record ServerContext(
        MockServerConfig config,
        InferenceEngine engine,
        ServerMetrics metrics,
        GroundTruthLog truthLog,
        WriterLanes lanes,
        ScheduledExecutorService timer,
        long startedEpochSeconds) {

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
