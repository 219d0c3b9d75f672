/**
 * Helpers that know no concept of Goodput (units, word lists, the JSON problem text, single-setting range checks,
 * and beneath it statistics-free redaction); not API. They import nothing from Goodput's concept packages, so any of
 * them may use these. Types here may change or disappear in any release without notice.
 */
package dev.goodput.core.internal;
