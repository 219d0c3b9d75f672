/**
 * Internal implementation of Goodput; not API. Types here may change or disappear in any release without
 * notice. Use the types of {@code dev.goodput.core.report} instead.
 */
package dev.goodput.core.report.internal;
