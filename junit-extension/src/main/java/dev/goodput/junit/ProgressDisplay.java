package dev.goodput.junit;

import java.io.Console;
import java.lang.reflect.Method;
import java.util.Optional;

/**
 * How a run's progress is shown. On a terminal, one line rewritten in place ({@code \r}) from the third second on.
 * Anywhere else (a build log, a CI job, an IDE's test window) a plain line every ten seconds, because a log keeps
 * every rewrite of a live line as one ever longer line: with {@code goodput.progress=auto} (the default) from the
 * fifteenth second on, so that short runs print nothing, and with {@code on} from the tenth.
 *
 * @param live whether to rewrite one line in place
 * @param firstNanos how long into the run the first line waits
 * @param everyNanos for plain lines, the time between two lines
 */
record ProgressDisplay(boolean live, long firstNanos, long everyNanos) {

    static final long SECOND = 1_000_000_000L;
    static final long LIVE_AFTER_NANOS = 3 * SECOND;
    static final long PLAIN_EVERY_NANOS = 10 * SECOND;
    static final long PLAIN_AUTO_AFTER_NANOS = 15 * SECOND;

    /** Returns the display for the setting, or empty when progress is off. */
    static Optional<ProgressDisplay> choose(GoodputConfiguration.Progress setting, boolean terminal) {
        return switch (setting) {
            case OFF -> Optional.empty();
            case ON ->
                Optional.of(
                        terminal
                                ? new ProgressDisplay(true, LIVE_AFTER_NANOS, 0)
                                : new ProgressDisplay(false, PLAIN_EVERY_NANOS, PLAIN_EVERY_NANOS));
            case AUTO ->
                Optional.of(
                        terminal
                                ? new ProgressDisplay(true, LIVE_AFTER_NANOS, 0)
                                : new ProgressDisplay(false, PLAIN_AUTO_AFTER_NANOS, PLAIN_EVERY_NANOS));
        };
    }

    /** Returns the display for the setting on this JVM's standard streams. */
    static Optional<ProgressDisplay> forThisJvm(GoodputConfiguration.Progress setting) {
        return choose(setting, terminalAttached());
    }

    /**
     * Returns whether the JVM's output goes to a terminal. Before Java 22 a console exists only then; from Java 22
     * on one exists for redirected streams too, and {@code Console.isTerminal()} (not in Java 17's API) tells.
     */
    static boolean terminalAttached() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return Boolean.TRUE.equals(isTerminal.invoke(console));
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }
}
