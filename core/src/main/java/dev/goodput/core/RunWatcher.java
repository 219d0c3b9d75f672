package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A {@link ProgressListener} that may end a run early: it is told the run's progress every {@link #interval()}
 * and, after each report, asked whether the run should stop. When it gives a reason, the run creates no more
 * requests and cancels those in flight with that reason, so every request still ends in one record.
 *
 * <p>Pass it as the run's progress listener ({@link RunSpec.Builder#progress(ProgressListener)}). A sweep uses
 * one to end an over-saturated run early and to enforce its per-run time limit.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface RunWatcher extends ProgressListener {

    /** Returns how often the run's progress is reported to this watcher (a progress listener gets 1 s). */
    Duration interval();

    /** Returns why the run should stop now, or empty to let it go on. Called right after each report. */
    Optional<String> stopReason();
}
