package dev.goodput.mock.internal.engine;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A sink that records every call with its intended time and, for real-time tests, the time it was made. */
final class RecordingSink implements TokenSink {

    record Emission(int firstTokenIndex, int count, long intendedNanos, long deliveredNanos) {}

    final List<Emission> emissions = new CopyOnWriteArrayList<>();
    private final CountDownLatch finished = new CountDownLatch(1);
    volatile String finishReason;
    volatile long finishNanos;
    volatile boolean cancelled;

    @Override
    public void onTokens(int firstTokenIndex, int count, long intendedNanos) {
        emissions.add(new Emission(firstTokenIndex, count, intendedNanos, System.nanoTime()));
    }

    @Override
    public void onFinish(String finishReason, long intendedNanos) {
        this.finishReason = finishReason;
        this.finishNanos = intendedNanos;
        finished.countDown();
    }

    @Override
    public boolean isCancelled() {
        return cancelled;
    }

    boolean awaitFinish(long seconds) throws InterruptedException {
        return finished.await(seconds, TimeUnit.SECONDS);
    }

    boolean isFinished() {
        return finished.getCount() == 0;
    }

    int tokens() {
        return emissions.stream().mapToInt(Emission::count).sum();
    }

    long firstTokenNanos() {
        return emissions.get(0).intendedNanos();
    }
}
