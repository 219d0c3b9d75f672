package dev.goodput.core.sweep;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** Told how far a sweep has got, about once a second while a run is under way. Must return quickly. */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface SweepListener {

    void onProgress(SweepProgress progress);
}
