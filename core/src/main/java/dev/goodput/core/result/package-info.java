/**
 * What a run measured: the {@link dev.goodput.core.result.RunResult} with its latency summaries, accounting of
 * every scheduled request, failures, token statistics, steady state, the client's own health and the
 * environment it ran in; and {@link dev.goodput.core.result.TrialSummary} across repeated runs. The metrics are
 * defined in {@code docs/metrics.md}.
 */
package dev.goodput.core.result;
