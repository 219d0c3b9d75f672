package dev.goodput.mock.internal.engine;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * What every real-time engine shares: one daemon thread that owns the engine's state, a lock-free queue through
 * which submissions from any thread reach it, and the close protocol (stop the thread, abort whatever it never
 * took), and the reset protocol (the thread rebuilds its state when it is next idle, so no lock guards that state).
 * Subclasses write the thread's loop, drain the queue at the boundaries their model allows, and call
 * {@link #resetIfRequested()} whenever they have no work.
 */
abstract class EngineThread implements InferenceEngine {

    private record Submission(Generation generation, TokenSink sink) {}

    private final ConcurrentLinkedQueue<Submission> submissions = new ConcurrentLinkedQueue<>();
    private final AtomicLong submitted = new AtomicLong();
    private final EmissionLateness lateness = new EmissionLateness();
    private final AtomicReference<CompletableFuture<Void>> requestedReset = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean closed;

    EngineThread(String threadName) {
        this.thread = new Thread(this::run, threadName);
        thread.setDaemon(true);
    }

    /** Starts the engine's thread; returns this engine. */
    final InferenceEngine start() {
        thread.start();
        return this;
    }

    /** The engine thread's loop: runs until {@link #isClosed()}, then aborts what is left. */
    abstract void run();

    /** Hands one submission to the engine's own state; called on the engine thread only. */
    abstract void accept(Generation generation, TokenSink sink);

    /** Replaces the engine's state with the state it started with; called on the engine thread, when idle. */
    abstract void restart();

    @Override
    public final void reset(Duration timeout) throws TimeoutException, InterruptedException {
        CompletableFuture<Void> done =
                requestedReset.updateAndGet(pending -> pending != null ? pending : new CompletableFuture<>());
        LockSupport.unpark(thread);
        try {
            done.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the engine failed to reset", e.getCause());
        } catch (TimeoutException e) {
            throw new TimeoutException("the engine still had generations running or waiting after " + timeout);
        }
        if (closed) {
            throw new IllegalStateException("the engine is closed");
        }
    }

    /** Returns whether a reset is waiting for the engine to be idle. */
    final boolean isResetRequested() {
        return requestedReset.get() != null;
    }

    /**
     * Restarts the engine if a reset was asked for; the loop calls it when nothing is running, waiting or due, after
     * draining the queue (a submission drained after it simply runs on the fresh state).
     */
    final void resetIfRequested() {
        CompletableFuture<Void> pending = requestedReset.getAndSet(null);
        if (pending != null) {
            try {
                restart();
                pending.complete(null);
            } catch (RuntimeException e) {
                pending.completeExceptionally(e);
            }
        }
    }

    @Override
    public final void submit(Generation generation, TokenSink sink) {
        if (closed) {
            sink.onFinish("abort", System.nanoTime());
            return;
        }
        submitted.incrementAndGet();
        submissions.add(new Submission(generation, sink));
        LockSupport.unpark(thread);
    }

    /** Passes every queued submission to {@link #accept}, in arrival order; engine thread only. */
    final void drainSubmissions() {
        Submission submission;
        while ((submission = submissions.poll()) != null) {
            accept(submission.generation(), submission.sink());
        }
    }

    /** Returns how many generations were submitted so far, from any thread. */
    final long submitted() {
        return submitted.get();
    }

    final boolean isClosed() {
        return closed;
    }

    /** Returns how late the engine thread woke against each planned time. */
    final EmissionLateness lateness() {
        return lateness;
    }

    @Override
    public final void close() {
        closed = true;
        LockSupport.unpark(thread);
        if (Thread.currentThread() != thread) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Submission submission;
        while ((submission = submissions.poll()) != null) {
            submission.sink().onFinish("abort", System.nanoTime());
        }
        CompletableFuture<Void> pending = requestedReset.getAndSet(null);
        if (pending != null) {
            pending.complete(null); // the caller sees the engine closed
        }
    }
}
