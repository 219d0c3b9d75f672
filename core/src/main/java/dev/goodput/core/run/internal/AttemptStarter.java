package dev.goodput.core.run.internal;

import dev.goodput.core.NanoClock;
import dev.goodput.core.transport.Transport;
import dev.goodput.core.transport.internal.MeasuredAttempt;
import java.util.ArrayDeque;

/**
 * Hands dispatched attempts to the transport outside the load driver's monitor: the driver queues them under its
 * monitor, and whoever dispatched starts them after releasing it, since a start costs the JDK client ~0.3 ms that
 * other threads must not wait for.
 *
 * <p>Each thread starts what it queued itself, never another thread's: a closed loop's follow-up goes out from the
 * reading thread that saw its user's previous request end, which is what lets a transport write it there without a
 * hand-off ({@link Transport#startsOnReadThreadsCheaply()}). With one queue for all threads, a reading thread that
 * had released the monitor a moment earlier could take another loop's follow-up, and a loaded machine, where a
 * thread is often held up between two instructions, made that common.
 *
 * <p>A start that fails at once ends its request, and that end may dispatch the next request (a closed loop's user
 * without think time) and start it on the same thread. That nested start leaves its attempt to the loop further
 * up the stack, so a server that refuses every request cannot make the stack grow with each one. Thread-safe.
 */
final class AttemptStarter {

    private final Transport transport;
    private final NanoClock clock;
    private final ThreadLocal<OwnQueue> queues = ThreadLocal.withInitial(OwnQueue::new);

    AttemptStarter(Transport transport, NanoClock clock) {
        this.transport = transport;
        this.clock = clock;
    }

    /** Queues an attempt for this thread's next {@link #startQueued()}. */
    void queue(MeasuredAttempt attempt) {
        queues.get().attempts.add(attempt);
    }

    /**
     * Starts every attempt this thread queued, including those queued while it runs; call without the driver's
     * monitor, on the thread that dispatched.
     */
    void startQueued() {
        OwnQueue own = queues.get();
        if (own.starting) {
            return; // the call further up this thread's stack takes what was just queued
        }
        own.starting = true;
        try {
            for (MeasuredAttempt attempt = own.attempts.poll(); attempt != null; attempt = own.attempts.poll()) {
                start(attempt);
            }
        } finally {
            own.starting = false;
        }
    }

    private void start(MeasuredAttempt attempt) {
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

    /** One thread's attempts, dispatched and not yet started, and whether it is inside {@link #startQueued()}. */
    private static final class OwnQueue {
        final ArrayDeque<MeasuredAttempt> attempts = new ArrayDeque<>();
        boolean starting;
    }
}
