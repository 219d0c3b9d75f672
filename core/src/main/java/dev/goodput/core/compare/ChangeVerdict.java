package dev.goodput.core.compare;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** What a comparison with a baseline says about one metric, or about the whole comparison. */
@API(status = EXPERIMENTAL, since = "0.2")
public enum ChangeVerdict {
    /** The interval on the change lies inside the minimum practical change either way. */
    UNCHANGED,
    /** Better beyond doubt, by at least the minimum practical change at the estimate. */
    IMPROVED,
    /** Worse beyond doubt, by at least the minimum practical change at the estimate. */
    REGRESSED,
    /** The data cannot tell: the interval reaches past the minimum change and includes no change, or is missing. */
    INCONCLUSIVE,
    /** The two runs cannot be compared (different workload, load, server, version, or a drifted load). */
    INVALID
}
