package dev.goodput.mock.internal.engine;

import dev.goodput.mock.PerformanceModel;

/** Starts the engine a {@link PerformanceModel} calls for, on real time ({@link System#nanoTime()}). */
public final class Engines {

    private Engines() {}

    /** Returns a started engine; close it to stop its thread. */
    public static InferenceEngine start(PerformanceModel model) {
        if (model.mode() == PerformanceModel.Mode.FIXED) {
            return new FixedEngine(model).start();
        }
        return new BatchingEngine(model).start();
    }
}
