/**
 * Internal implementation of Goodput's objective verdicts; not API. Types here may change or disappear in any
 * release without notice. Use the types of {@code dev.goodput.core.slo} instead.
 */
package dev.goodput.core.slo.internal;
