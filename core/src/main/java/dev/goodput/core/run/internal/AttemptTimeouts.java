package dev.goodput.core.run.internal;

import dev.goodput.core.load.RequestPolicy;
import dev.goodput.core.transport.internal.MeasuredAttempt;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Arms the timeouts of the request policy for one attempt, counted from that attempt's send. A headers or first
 * token timeout that fires after the attempt got that far does nothing; whichever fires first otherwise ends the
 * attempt as timed out, and the attempt ignores the rest.
 */
final class AttemptTimeouts {

    private final TaskScheduler scheduler;
    private final RequestPolicy policy;

    AttemptTimeouts(TaskScheduler scheduler, RequestPolicy policy) {
        this.scheduler = scheduler;
        this.policy = policy;
    }

    /** Arms the attempt's timeouts; cancel them with {@link #disarm(List)} when it ends. */
    List<TaskScheduler.Cancellable> arm(MeasuredAttempt attempt, long sentNanos) {
        List<TaskScheduler.Cancellable> armed = new ArrayList<>(3);
        policy.headersTimeout()
                .ifPresent(timeout -> armed.add(arm(attempt, sentNanos, timeout, "no response headers", true, false)));
        policy.firstTokenTimeout()
                .ifPresent(timeout -> armed.add(arm(attempt, sentNanos, timeout, "no first token", false, true)));
        armed.add(arm(attempt, sentNanos, policy.totalTimeout(), "not finished", false, false));
        return armed;
    }

    /** Cancels timeouts armed by {@link #arm}; {@code null} (none armed) is allowed. */
    static void disarm(List<TaskScheduler.Cancellable> armed) {
        if (armed != null) {
            armed.forEach(TaskScheduler.Cancellable::cancel);
        }
    }

    private TaskScheduler.Cancellable arm(
            MeasuredAttempt attempt,
            long sentNanos,
            Duration timeout,
            String what,
            boolean unlessHeaders,
            boolean unlessFirstToken) {
        return scheduler.schedule(sentNanos + timeout.toNanos(), () -> {
            if ((unlessHeaders && attempt.hasHeaders()) || (unlessFirstToken && attempt.hasFirstToken())) {
                return;
            }
            // Worded only when it fires: arming happens on the sending path, for every request.
            attempt.timeOut(
                    what + " within " + format(timeout) + " of sending",
                    scheduler.clock().nanoTime());
        });
    }

    /** Formats a duration for a reason: whole seconds as {@code "30 s"}, else milliseconds. */
    static String format(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }
}
