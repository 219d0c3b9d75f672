package dev.goodput.core;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Told how far a run has got, about once a second and once more at the end, on Goodput's scheduler thread.
 * Must return quickly and not throw.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface ProgressListener {

    void onProgress(RunProgress progress);
}
