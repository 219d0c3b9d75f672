package dev.goodput.junit;

import dev.goodput.core.sweep.SweepListener;
import dev.goodput.core.sweep.SweepProgress;
import java.io.PrintStream;

/**
 * A sweep's progress on stderr: the current load, runs done and planned, the time left. Shown as the run progress
 * line is ({@link ProgressDisplay}): rewritten in place on a terminal, a plain line every ten seconds in a log.
 */
final class SweepProgressLine implements SweepListener {

    private final String name;
    private final PrintStream out;
    private final ProgressDisplay display;
    private long nextNanos;

    SweepProgressLine(String name, PrintStream out, ProgressDisplay display) {
        this.name = name;
        this.out = out;
        this.display = display;
        this.nextNanos = display.firstNanos();
    }

    /** Returns a progress line for the test, or {@code null} when progress is off. */
    static SweepListener forTest(String name, GoodputConfiguration configuration) {
        return ProgressDisplay.forThisJvm(configuration.progress())
                .map(display -> new SweepProgressLine(name, System.err, display))
                .orElse(null);
    }

    @Override
    public void onProgress(SweepProgress progress) {
        if (display.live()) {
            out.print("\r" + line(name, progress));
            if (progress.run().finished()) {
                out.println();
            }
            out.flush();
        } else if (progress.elapsedNanos() >= nextNanos) {
            out.println(plainLine(name, progress));
            out.flush();
            nextNanos = progress.elapsedNanos() + display.everyNanos();
        }
    }

    /** The live line: {@code [goodput] X.m: sweep run 3/8, rate 6.00 req/s, 12/60 requests, ~40 s left}. */
    static String line(String name, SweepProgress progress) {
        return "[goodput] " + name + ": " + progress.describe();
    }

    /** A plain line for a log: the live line's words, the sweep's elapsed time, in flight and unsuccessful. */
    static String plainLine(String name, SweepProgress progress) {
        return String.format(
                java.util.Locale.ROOT,
                "[goodput] %s: %.0f s, %s, %d in flight, %d unsuccessful in this run",
                name,
                progress.elapsedNanos() / 1e9,
                progress.describe(),
                progress.run().inFlight(),
                progress.run().unsuccessful());
    }
}
