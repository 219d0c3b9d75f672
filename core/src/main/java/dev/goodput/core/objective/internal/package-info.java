/**
 * Internal implementation of Goodput's objective verdicts; not API. Types here may change or disappear in any
 * release without notice. Use the types of {@code dev.goodput.core.objective} instead.
 */
package dev.goodput.core.objective.internal;
