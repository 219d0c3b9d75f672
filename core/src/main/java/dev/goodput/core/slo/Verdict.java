package dev.goodput.core.slo;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** The verdict on one service-level objective. */
@API(status = EXPERIMENTAL, since = "0.1")
public enum Verdict {
    /** The objective holds, and its confidence interval lies entirely on the good side of the bound. */
    MET,
    /** The objective does not hold, and its confidence interval lies entirely on the bad side of the bound. */
    VIOLATED,
    /** The confidence interval straddles the bound, or there are too few samples to tell. */
    INCONCLUSIVE
}
