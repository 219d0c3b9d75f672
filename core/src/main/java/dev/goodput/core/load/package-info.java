/**
 * How hard a run pushes: the arrival process ({@link dev.goodput.core.load.Arrivals}), how long it lasts and how
 * many requests it sends ({@link dev.goodput.core.load.Load}, {@link dev.goodput.core.load.RunLength}), the limits
 * that stop it early, the per-request policy (timeouts, retries) and, across processes, one process's
 * {@link dev.goodput.core.load.Shard}. See {@code docs/load.md}.
 */
package dev.goodput.core.load;
