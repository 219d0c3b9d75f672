/**
 * The statistics every estimate carries: a {@link dev.goodput.core.stats.Summary} of a distribution and the
 * {@link dev.goodput.core.stats.ConfidenceInterval} around an estimate, with the method that made it. The methods
 * are described in {@code docs/metrics.md}.
 */
package dev.goodput.core.stats;
