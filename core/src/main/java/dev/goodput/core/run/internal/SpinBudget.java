package dev.goodput.core.run.internal;

/**
 * How much the scheduler thread may spin waiting for tasks' due times: {@link #BUDGET_NANOS} in each second, 3 % of
 * one core. At 200 arrivals a second the spins (about 0.1 ms each) stay within it; at several thousand a second they
 * would not, and the tasks past the budget wait as a timed wait allows instead of taking a core from the client's
 * reading threads and the server. Not thread-safe: the scheduler's one thread uses it.
 */
final class SpinBudget {

    static final long WINDOW_NANOS = 1_000_000_000L;
    static final long BUDGET_NANOS = 30_000_000L;

    private long windowStart;
    private long spent;

    SpinBudget(long nowNanos) {
        this.windowStart = nowNanos;
    }

    /** Whether a spin may start now: the current second's spins have not used the budget up. */
    boolean maySpin(long nowNanos) {
        if (nowNanos - windowStart >= WINDOW_NANOS) {
            windowStart = nowNanos;
            spent = 0;
        }
        return spent < BUDGET_NANOS;
    }

    /** Counts a spin against the current second's budget. */
    void spent(long nanos) {
        spent += nanos;
    }
}
