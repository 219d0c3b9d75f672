/**
 * Sharded runs: one run's load split across several load-generator processes ({@link dev.goodput.core.load.Shard}),
 * each writing what it measured in a mergeable form, and the merge of those outputs into one result and one
 * verdict. Start with {@link dev.goodput.core.shard.Shards}; docs/distributed.md tells when and how.
 */
package dev.goodput.core.shard;
