/**
 * Internal implementation of Goodput's A/B runs; not API. Types here may change or disappear in any release without
 * notice. Use the types of {@code dev.goodput.core.ab} instead.
 */
package dev.goodput.core.ab.internal;
