/**
 * Internal implementation of the Goodput mock server; not API. Types here may change or disappear in any
 * release without notice.
 *
 * <p>The engines behind {@link dev.goodput.mock.PerformanceModel}. Each is a deterministic core that computes
 * intended emission times on a clock its caller passes in ({@code BatchScheduler} for continuous batching,
 * {@code FixedSchedule} for fixed mode), driven on real time by one thread that waits precisely for each due time
 * ({@code BatchingEngine}, {@code FixedEngine}) and on virtual time by tests. The batching core imitates vLLM V1: decode-first steps under a token budget, FCFS
 * admission while batch slots and KV blocks allow ({@code KvBlockPool}, with chained-hash prefix caching and LRU
 * eviction), chunked prefill, preemption by recompute, and roofline step costs ({@code StepCost}).
 */
package dev.goodput.mock.internal.engine;
