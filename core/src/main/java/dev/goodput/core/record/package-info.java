/**
 * What happened to one request: its {@link dev.goodput.core.record.RequestRecord} (every instant from one clock,
 * its {@link dev.goodput.core.record.Outcome} and, on failure, the {@link dev.goodput.core.record.Phase} it failed
 * in), its attempts, the stream's phases and the server's own timings where it reports them.
 */
package dev.goodput.core.record;
