/**
 * Internal implementation of Goodput; not API. Types here may change or disappear in any release without
 * notice. Use {@code dev.goodput.core.Goodput} instead.
 */
package dev.goodput.core.run.internal;
