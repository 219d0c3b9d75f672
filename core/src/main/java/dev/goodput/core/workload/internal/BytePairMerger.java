package dev.goodput.core.workload.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** A BPE model: a vocabulary and ranked merges, applied lowest rank first to one pre-tokenized word. */
final class BytePairMerger {

    private final Map<String, Integer> vocab;
    private final String[] tokens;
    private final Map<String, Integer> ranks;
    private final boolean ignoreMerges;

    private BytePairMerger(Map<String, Integer> vocab, String[] tokens, Map<String, Integer> ranks, boolean ignore) {
        this.vocab = vocab;
        this.tokens = tokens;
        this.ranks = ranks;
        this.ignoreMerges = ignore;
    }

    static BytePairMerger of(Path file, JsonNode vocabNode, JsonNode mergesNode, boolean ignoreMerges) {
        Map<String, Integer> vocab = new HashMap<>();
        int maxId = -1;
        for (Iterator<Map.Entry<String, JsonNode>> it = vocabNode.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            if (!entry.getValue().canConvertToInt() || entry.getValue().asInt() < 0) {
                throw new IllegalArgumentException("tokenizer file " + file + ": model.vocab entry \"" + entry.getKey()
                        + "\" must have an id of at least 0, had " + entry.getValue());
            }
            vocab.put(entry.getKey(), entry.getValue().asInt());
            maxId = Math.max(maxId, entry.getValue().asInt());
        }
        String[] tokens = new String[maxId + 1];
        vocab.forEach((token, id) -> tokens[id] = token);
        Map<String, Integer> ranks = new HashMap<>();
        int rank = 0;
        for (JsonNode merge : mergesNode) {
            String pair = merge.isArray()
                    ? merge.path(0).asText() + " " + merge.path(1).asText()
                    : merge.asText();
            if (pair.indexOf(' ') < 1) {
                throw new IllegalArgumentException(
                        "tokenizer file " + file + ": model.merges[" + rank + "] is not a pair, was " + merge);
            }
            ranks.putIfAbsent(pair, rank++);
        }
        return new BytePairMerger(vocab, tokens, ranks, ignoreMerges);
    }

    String token(int id) {
        if (id < 0 || id >= tokens.length || tokens[id] == null) {
            throw new IllegalArgumentException("token id " + id + " is not in the vocabulary");
        }
        return tokens[id];
    }

    int[] merge(String word) {
        if (ignoreMerges && vocab.containsKey(word)) {
            return new int[] {vocab.get(word)};
        }
        List<String> symbols = new ArrayList<>(word.length());
        word.codePoints().forEach(cp -> symbols.add(new String(Character.toChars(cp))));
        while (symbols.size() > 1) {
            int best = -1;
            int bestRank = Integer.MAX_VALUE;
            for (int i = 0; i + 1 < symbols.size(); i++) {
                Integer r = ranks.get(symbols.get(i) + " " + symbols.get(i + 1));
                if (r != null && r < bestRank) {
                    bestRank = r;
                    best = i;
                }
            }
            if (best < 0) {
                break;
            }
            symbols.set(best, symbols.get(best) + symbols.remove(best + 1));
        }
        int[] ids = new int[symbols.size()];
        for (int i = 0; i < ids.length; i++) {
            Integer id = vocab.get(symbols.get(i));
            if (id == null) {
                throw new IllegalArgumentException("symbol \"" + symbols.get(i) + "\" is not in the vocabulary");
            }
            ids[i] = id;
        }
        return ids;
    }
}
