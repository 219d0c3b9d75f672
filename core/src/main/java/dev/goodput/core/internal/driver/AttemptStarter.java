package dev.goodput.core.internal.driver;

import dev.goodput.core.NanoClock;
import dev.goodput.core.internal.client.StreamAttempt;
import dev.goodput.core.internal.client.Transport;
import java.util.ArrayList;
import java.util.List;

/**
 * Hands dispatched attempts to the transport outside the load driver's monitor: the driver queues them under its
 * monitor, and whoever dispatched starts them after releasing it, since a start costs the JDK client ~0.3 ms that
 * other threads must not wait for.
 *
 * <p>A start that fails at once ends its request, and that end may dispatch the next request (a closed loop's user
 * without think time) and start it on the same thread. That nested start leaves its attempt to the loop further
 * up the stack, so a server that refuses every request cannot make the stack grow with each one. Thread-safe.
 */
final class AttemptStarter {

    private final Transport transport;
    private final NanoClock clock;
    /** Whether this thread is inside {@link #startQueued()}. */
    private final ThreadLocal<Boolean> starting = ThreadLocal.withInitial(() -> false);
    // Guarded by this.
    private final List<StreamAttempt> queued = new ArrayList<>();

    AttemptStarter(Transport transport, NanoClock clock) {
        this.transport = transport;
        this.clock = clock;
    }

    /** Queues an attempt for the next {@link #startQueued()}. */
    synchronized void queue(StreamAttempt attempt) {
        queued.add(attempt);
    }

    /** Starts every queued attempt, including those queued while it runs; call without the driver's monitor. */
    void startQueued() {
        if (starting.get()) {
            return; // the call further up this thread's stack takes what was just queued
        }
        starting.set(true);
        try {
            for (List<StreamAttempt> attempts = take(); !attempts.isEmpty(); attempts = take()) {
                for (StreamAttempt attempt : attempts) {
                    start(attempt);
                }
            }
        } finally {
            starting.set(false);
        }
    }

    private synchronized List<StreamAttempt> take() {
        if (queued.isEmpty()) {
            return List.of();
        }
        List<StreamAttempt> attempts = new ArrayList<>(queued);
        queued.clear();
        return attempts;
    }

    private void start(StreamAttempt attempt) {
        if (attempt.request().isEnded()) {
            return; // cancelled before it could be started
        }
        try {
            attempt.attach(transport.start(attempt));
        } catch (RuntimeException e) {
            // A request that cannot even be sent still ends in exactly one outcome.
            attempt.onFailure(e, clock.nanoTime());
        }
    }
}
