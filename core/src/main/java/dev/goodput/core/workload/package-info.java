/**
 * Workloads that look like real traffic: length distributions, prompts with exact token counts for a named
 * tokenizer, prefix-cache policies, datasets and trace replay. See {@code docs/workloads.md}.
 */
package dev.goodput.core.workload;
