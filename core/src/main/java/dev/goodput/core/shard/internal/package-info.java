/**
 * Internal implementation of Goodput; not API. Types here may change or disappear in any release without
 * notice. Lets the shards of one sharded run agree on a common start instant and measure their clock offsets
 * to shard 0, the coordinator: see {@link dev.goodput.core.shard.internal.StartBarrier}.
 */
package dev.goodput.core.shard.internal;
