/**
 * Internal implementation of Goodput; not API. Types here may change or disappear in any release without
 * notice. Reads what a server says about itself: parses a Prometheus {@code /metrics} page and reduces its
 * series to {@link dev.goodput.core.servermetrics.internal.ServerSignal}s in one unit each.
 */
package dev.goodput.core.servermetrics.internal;
