package dev.goodput.core.record;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * The part of a run a request belongs to. Warm-up and cool-down requests are sent like any other but are
 * excluded from every metric; they appear only in the accounting.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public enum Phase {
    WARMUP,
    MEASURED,
    COOLDOWN
}
