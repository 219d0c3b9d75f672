package dev.goodput.mock.internal.engine;

import java.util.ArrayList;
import java.util.List;

/**
 * One generation inside the batching scheduler: its prompt's block hashes, the KV blocks it holds, and how far
 * it has got. Its context is {@code promptTokens + outputTokens}; {@code computedTokens} of them have KV in the
 * cache. A decoding sequence has every token computed but the last sampled one, which the next step feeds back.
 */
final class Sequence {

    final Generation generation;
    final TokenSink sink;
    final OutputLength output;
    final long order;
    final long[] blockHashes;
    final List<KvBlockPool.Block> blocks = new ArrayList<>();
    int computedTokens;
    int outputTokens;
    int sentTokens;
    int registeredBlocks;
    boolean dropped;
    boolean scheduledBefore;

    Sequence(Generation generation, TokenSink sink, OutputLength output, long order, int blockSize) {
        this.generation = generation;
        this.sink = sink;
        this.output = output;
        this.order = order;
        this.blockHashes = chainedBlockHashes(generation.promptTokenHashes(), blockSize);
    }

    int promptTokens() {
        return generation.promptTokens();
    }

    int contextTokens() {
        return generation.promptTokens() + outputTokens;
    }

    boolean isDecoding() {
        return outputTokens > 0 && computedTokens == contextTokens() - 1;
    }

    boolean isDone() {
        return outputTokens >= output.tokens();
    }

    /**
     * Hashes each full prompt block together with the hash of the block before it, as vLLM does, so that a block
     * matches only when the whole prefix up to and including it matches.
     */
    static long[] chainedBlockHashes(long[] tokenHashes, int blockSize) {
        long[] hashes = new long[tokenHashes.length / blockSize];
        long previous = 0x6A09E667F3BCC909L;
        for (int block = 0; block < hashes.length; block++) {
            long hash = previous;
            for (int i = block * blockSize; i < (block + 1) * blockSize; i++) {
                hash = mix(hash * 31 + tokenHashes[i]);
            }
            hashes[block] = hash;
            previous = hash;
        }
        return hashes;
    }

    /** The 64-bit finaliser of MurmurHash3, so nearby token hashes spread over the whole range. */
    private static long mix(long value) {
        long h = value;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB93FE53A87EBL;
        h ^= h >>> 33;
        return h;
    }
}
