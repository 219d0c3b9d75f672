/**
 * Internal implementation of the Goodput mock server; not API. Types here may change or disappear in any
 * release without notice.
 */
package dev.goodput.mock.internal.cli;
