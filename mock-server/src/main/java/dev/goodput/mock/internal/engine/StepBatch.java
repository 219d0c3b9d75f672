package dev.goodput.mock.internal.engine;

import dev.goodput.mock.PerformanceModel;
import java.util.ArrayList;
import java.util.List;

/** The work scheduled into one step, with the token budget left and the sums its cost depends on. */
final class StepBatch {

    /** One sequence's share of the step: {@code tokens} new tokens after {@code offset} computed ones. */
    record Entry(Sequence sequence, int offset, int tokens, boolean decoding) {}

    private final List<Entry> entries = new ArrayList<>();
    private int budget;
    private int decodeSequences;
    private long decodeContextTokens;
    private int prefillTokens;
    private long prefillContextTokens;
    private long prefillAttentionPairs;

    StepBatch(int tokenBudget) {
        this.budget = tokenBudget;
    }

    void add(Sequence sequence, int offset, int tokens, boolean decoding) {
        entries.add(new Entry(sequence, offset, tokens, decoding));
        budget -= tokens;
        if (decoding) {
            decodeSequences++;
            // A decode reads the KV of its whole context, the token it feeds back included.
            decodeContextTokens += offset + 1;
        } else {
            prefillTokens += tokens;
            prefillContextTokens += offset + tokens;
            prefillAttentionPairs += StepCost.attentionPairs(offset, tokens);
        }
    }

    int budget() {
        return budget;
    }

    List<Entry> entries() {
        return entries;
    }

    int decodeSequences() {
        return decodeSequences;
    }

    int prefillTokens() {
        return prefillTokens;
    }

    long costNanos(PerformanceModel model) {
        return StepCost.stepNanos(
                model,
                decodeSequences,
                decodeContextTokens,
                prefillTokens,
                prefillContextTokens,
                prefillAttentionPairs);
    }
}
