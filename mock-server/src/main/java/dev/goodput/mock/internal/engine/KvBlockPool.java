package dev.goodput.mock.internal.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The KV cache as vLLM's block manager keeps it: fixed-size blocks shared by reference count, with full prompt
 * blocks indexed by their chained hash so that later requests with the same prefix reuse them (automatic prefix
 * caching). A block whose last reference goes away stays cached but becomes evictable; when a fresh block is
 * needed and none is free, the least recently released evictable block loses its cache entry and is reused.
 */
final class KvBlockPool {

    /** One KV-cache block. */
    static final class Block {
        private int references;
        private long hash;
        private boolean cached;
    }

    private final int blockSize;
    private final int totalBlocks;
    private final ArrayDeque<Block> free = new ArrayDeque<>();
    private final LinkedHashSet<Block> evictable = new LinkedHashSet<>();
    private final Map<Long, Block> cachedByHash = new HashMap<>();

    KvBlockPool(long capacityTokens, int blockSize) {
        this.blockSize = blockSize;
        this.totalBlocks = (int) Math.min(Integer.MAX_VALUE, capacityTokens / blockSize);
        for (int i = 0; i < totalBlocks; i++) {
            free.add(new Block());
        }
    }

    int blockSize() {
        return blockSize;
    }

    int totalBlocks() {
        return totalBlocks;
    }

    /** Returns the blocks that can be handed out now: free ones plus cached ones nobody references. */
    int availableBlocks() {
        return free.size() + evictable.size();
    }

    int usedBlocks() {
        return totalBlocks - availableBlocks();
    }

    /** Returns the number of blocks needed to hold {@code tokens} tokens. */
    int blocksFor(long tokens) {
        return (int) ((tokens + blockSize - 1) / blockSize);
    }

    /** Returns the cached blocks matching the leading {@code maxBlocks} hashes, stopping at the first miss. */
    List<Block> lookup(long[] blockHashes, int maxBlocks) {
        List<Block> hits = new ArrayList<>();
        int limit = Math.min(maxBlocks, blockHashes.length);
        for (int i = 0; i < limit; i++) {
            Block block = cachedByHash.get(blockHashes[i]);
            if (block == null) {
                break;
            }
            hits.add(block);
        }
        return hits;
    }

    /**
     * Returns whether {@code newBlocks} fresh blocks can be allocated after taking references on {@code hits}
     * (hits that nobody references are evictable now and stop being so once taken).
     */
    boolean canAllocate(List<Block> hits, int newBlocks) {
        int evictableHits = 0;
        for (Block hit : hits) {
            if (hit.references == 0) {
                evictableHits++;
            }
        }
        return newBlocks <= availableBlocks() - evictableHits;
    }

    /** Takes a reference on each cached block in {@code hits}. */
    void acquire(List<Block> hits) {
        for (Block hit : hits) {
            if (hit.references++ == 0) {
                evictable.remove(hit);
            }
        }
    }

    /** Hands out a fresh block, evicting the least recently released cached block if none is free. */
    Block allocate() {
        Block block = free.poll();
        if (block == null) {
            Iterator<Block> oldest = evictable.iterator();
            if (!oldest.hasNext()) {
                throw new IllegalStateException("KV cache exhausted; callers check canAllocate first");
            }
            block = oldest.next();
            oldest.remove();
            cachedByHash.remove(block.hash);
            block.cached = false;
        }
        block.references = 1;
        return block;
    }

    /**
     * Drops one reference on each block. Released last-to-first, as vLLM does, so a sequence's tail blocks (the
     * least likely to be shared) are evicted before its head blocks.
     */
    void release(List<Block> blocks) {
        for (int i = blocks.size() - 1; i >= 0; i--) {
            Block block = blocks.get(i);
            if (--block.references == 0) {
                if (block.cached) {
                    evictable.add(block);
                } else {
                    free.add(block);
                }
            }
        }
    }

    /**
     * Indexes a full, computed block under its chained hash, unless another block already holds that hash (two
     * sequences computed the same prefix at once; the duplicate stays private).
     */
    void register(Block block, long hash) {
        if (!block.cached && !cachedByHash.containsKey(hash)) {
            block.hash = hash;
            block.cached = true;
            cachedByHash.put(hash, block);
        }
    }
}
