/**
 * Goodput's measurement engine: drive load against an OpenAI-compatible streaming server and measure time to
 * first token, time per output token, tail latency and goodput.
 *
 * <p>Start with {@link dev.goodput.core.Goodput}. Every instant comes from one {@link dev.goodput.core.NanoClock};
 * every request ends in one {@link dev.goodput.core.record.RequestRecord}; the metrics are defined in
 * {@code docs/metrics.md}.
 */
package dev.goodput.core;
