package dev.goodput.junit;

import dev.goodput.core.ProgressListener;
import dev.goodput.core.RunProgress;
import java.io.PrintStream;
import java.util.Locale;

/**
 * A run's progress on stderr, as {@link ProgressDisplay} decides: on a terminal one line rewritten in place, in a
 * log a plain line every ten seconds (requests ended, their rate, in flight, unsuccessful so far) and one when the
 * run is done. {@code goodput.progress=off} turns it off.
 */
final class ProgressLine implements ProgressListener {

    private final String name;
    private final PrintStream out;
    private final ProgressDisplay display;
    private boolean shown;
    private long nextNanos;
    private long lastEnded;
    private long lastElapsedNanos;

    ProgressLine(String name, PrintStream out, ProgressDisplay display) {
        this.name = name;
        this.out = out;
        this.display = display;
        this.nextNanos = display.firstNanos();
    }

    /** Returns a progress line for the test, or {@code null} when progress is off. */
    static ProgressListener forTest(String name, GoodputConfiguration configuration) {
        return ProgressDisplay.forThisJvm(configuration.progress())
                .map(display -> new ProgressLine(name, System.err, display))
                .orElse(null);
    }

    @Override
    public void onProgress(RunProgress progress) {
        if (display.live()) {
            live(progress);
        } else {
            plain(progress);
        }
    }

    private void live(RunProgress progress) {
        if (!shown && progress.elapsedNanos() < display.firstNanos()) {
            return;
        }
        shown = true;
        out.print("\r" + line(name, progress));
        if (progress.finished()) {
            out.println();
        }
        out.flush();
    }

    private void plain(RunProgress progress) {
        if (progress.finished()) {
            if (shown) {
                out.println(doneLine(name, progress));
                out.flush();
            }
            return;
        }
        if (progress.elapsedNanos() < nextNanos) {
            return;
        }
        out.println(plainLine(name, progress, lastEnded, lastElapsedNanos));
        out.flush();
        shown = true;
        lastEnded = progress.ended();
        lastElapsedNanos = progress.elapsedNanos();
        nextNanos = progress.elapsedNanos() + display.everyNanos();
    }

    /** The live line: {@code [goodput] X.m: 120/420 requests sent, 100 ended, 20 in flight, 0 unsuccessful, 5/18 s}. */
    static String line(String name, RunProgress progress) {
        String planned = progress.plannedRequests() > 0 ? "/" + progress.plannedRequests() : "";
        return String.format(
                Locale.ROOT,
                "[goodput] %s: %d%s requests sent, %d ended, %d in flight, %d unsuccessful, %s",
                name,
                progress.created(),
                planned,
                progress.ended(),
                progress.inFlight(),
                progress.unsuccessful(),
                time(progress));
    }

    /**
     * A plain line for a log: {@code [goodput] X.m: 20/30 s, 240/420 requests ended (24.0/s), 12 in flight, 0
     * unsuccessful}, the rate being that of the requests that ended since the previous line.
     */
    static String plainLine(String name, RunProgress progress, long previousEnded, long previousElapsedNanos) {
        String planned = progress.plannedRequests() > 0 ? "/" + progress.plannedRequests() : "";
        double seconds = (progress.elapsedNanos() - previousElapsedNanos) / 1e9;
        double rate = seconds > 0 ? (progress.ended() - previousEnded) / seconds : 0;
        return String.format(
                Locale.ROOT,
                "[goodput] %s: %s, %d%s requests ended (%.1f/s), %d in flight, %d unsuccessful",
                name,
                time(progress),
                progress.ended(),
                planned,
                rate,
                progress.inFlight(),
                progress.unsuccessful());
    }

    /** The plain line at the end: {@code [goodput] X.m: done after 32 s, 420 requests ended, 0 unsuccessful}. */
    static String doneLine(String name, RunProgress progress) {
        return String.format(
                Locale.ROOT,
                "[goodput] %s: done after %.0f s, %d requests ended, %d unsuccessful",
                name,
                progress.elapsedNanos() / 1e9,
                progress.ended(),
                progress.unsuccessful());
    }

    private static String time(RunProgress progress) {
        return progress.plannedNanos() > 0
                ? String.format(
                        Locale.ROOT, "%.0f/%.0f s", progress.elapsedNanos() / 1e9, progress.plannedNanos() / 1e9)
                : String.format(Locale.ROOT, "%.0f s", progress.elapsedNanos() / 1e9);
    }
}
