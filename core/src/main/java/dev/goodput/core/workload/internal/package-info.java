/** Implementation of the workload package: tokenizers, prompt building and file readers. Not API. */
package dev.goodput.core.workload.internal;
