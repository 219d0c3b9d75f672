package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * Follows a run and may end it early: it is told the run's progress every {@link #interval()} and, after each
 * report, asked whether the run should stop. When it gives a reason, the run creates no more requests and
 * cancels those in flight with that reason, so every request still ends in one record.
 *
 * <p>A run has a slot for one watcher ({@link Goodput.RunBuilder#watcher(RunWatcher)}) beside its progress
 * listener. A sweep uses one to end an over-saturated run early and to enforce its per-run time limit.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface RunWatcher {

    /** Returns how often the run's progress is reported to this watcher. */
    Duration interval();

    /** Told the run's progress every {@link #interval()}, on the run's scheduler thread; must return quickly. */
    void onProgress(RunProgress progress);

    /** Returns why the run should stop now, or empty to let it go on. Called right after each report. */
    Optional<String> stopReason();
}
