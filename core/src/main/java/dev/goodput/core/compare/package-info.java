/**
 * Regression verdicts: a gate's run compared with a stored baseline of the same test, metric by metric, with a
 * confidence interval on each change and a minimum practical change ({@link dev.goodput.core.compare.Comparison}).
 */
@API(status = EXPERIMENTAL, since = "0.2")
package dev.goodput.core.compare;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;
