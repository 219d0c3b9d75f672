package dev.goodput.junit;

import dev.goodput.core.ProgressListener;
import dev.goodput.core.RunProgress;
import java.io.PrintStream;
import java.util.Locale;

/**
 * A one-line progress display on the console for runs longer than a few seconds, rewritten in place. Off
 * when no console is attached (CI logs, IDE runners) unless {@code goodput.progress=on}.
 */
final class ProgressLine implements ProgressListener {

    private static final long QUIET_NANOS = 3_000_000_000L;

    private final String name;
    private final PrintStream out;
    private boolean shown;

    private ProgressLine(String name, PrintStream out) {
        this.name = name;
        this.out = out;
    }

    /** Returns a progress line for the test, or {@code null} when progress is off. */
    static ProgressListener forTest(String name, GoodputConfiguration configuration) {
        boolean on = switch (configuration.progress()) {
            case ON -> true;
            case OFF -> false;
            case AUTO -> System.console() != null;
        };
        if (!on) {
            return null;
        }
        return new ProgressLine(name, System.err);
    }

    @Override
    public void onProgress(RunProgress progress) {
        if (!shown && progress.elapsedNanos() < QUIET_NANOS) {
            return;
        }
        shown = true;
        out.print("\r" + line(name, progress));
        if (progress.finished()) {
            out.println();
        }
        out.flush();
    }

    static String line(String name, RunProgress progress) {
        String planned = progress.plannedRequests() > 0 ? "/" + progress.plannedRequests() : "";
        String time = progress.plannedNanos() > 0
                ? String.format(
                        Locale.ROOT, "%.0f/%.0f s", progress.elapsedNanos() / 1e9, progress.plannedNanos() / 1e9)
                : String.format(Locale.ROOT, "%.0f s", progress.elapsedNanos() / 1e9);
        return String.format(
                Locale.ROOT,
                "[goodput] %s: %d%s requests sent, %d ended, %d in flight, %s",
                name,
                progress.created(),
                planned,
                progress.ended(),
                progress.inFlight(),
                time);
    }
}
