package dev.goodput.junit;

import dev.goodput.core.sweep.SweepListener;
import dev.goodput.core.sweep.SweepProgress;
import java.io.PrintStream;

/**
 * A sweep's progress on the console, rewritten in place: the current load, runs done and planned, the time left.
 * On and off as the run progress line is.
 */
final class SweepProgressLine implements SweepListener {

    private final String name;
    private final PrintStream out;

    private SweepProgressLine(String name, PrintStream out) {
        this.name = name;
        this.out = out;
    }

    /** Returns a progress line for the test, or {@code null} when progress is off. */
    static SweepListener forTest(String name, GoodputConfiguration configuration) {
        if (ProgressLine.forTest(name, configuration) == null) {
            return null;
        }
        return new SweepProgressLine(name, System.err);
    }

    @Override
    public void onProgress(SweepProgress progress) {
        out.print("\r[goodput] " + name + ": " + progress.describe());
        if (progress.run().finished()) {
            out.println();
        }
        out.flush();
    }
}
