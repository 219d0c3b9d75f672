/**
 * Reports of a {@link dev.goodput.core.result.RunResult}: the versioned JSON result (with a block in the key names of
 * vLLM's benchmark), the per-request CSV, and the console summary.
 */
package dev.goodput.core.report;
