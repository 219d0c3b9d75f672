/**
 * Internal implementation of Goodput; not API. Types here may change or disappear in any release without
 * notice. Use the types of {@code dev.goodput.core.transport} instead.
 */
package dev.goodput.core.transport.internal;
