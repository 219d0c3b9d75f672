package dev.goodput.core.workload.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Hugging Face {@code tokenizer.json} with a BPE model and byte-level pre-tokenization, in pure Java: the
 * shape of GPT-2, Llama 3 and Qwen 2 tokenizers. Supported: normalizer none or NFC; pre-tokenizer {@code
 * ByteLevel} or a {@code Sequence} of {@code Split} (regex) and {@code ByteLevel}; {@code ignore_merges}.
 * Counts ordinary text (special tokens in the text are not recognised). Anything else fails on reading.
 */
public final class HuggingFaceTokenizer extends IdTokenizer {

    /** GPT-2's pre-tokenization pattern, used by a {@code ByteLevel} pre-tokenizer with {@code use_regex}. */
    private static final String GPT2_PATTERN =
            "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

    private final String name;
    private final Pattern split;
    private final boolean nfc;
    private final BytePairMerger merger;
    private final Map<String, int[]> cache = new ConcurrentHashMap<>();

    private HuggingFaceTokenizer(String name, Pattern split, boolean nfc, BytePairMerger merger) {
        this.name = name;
        this.split = split;
        this.nfc = nfc;
        this.merger = merger;
    }

    /** Reads a {@code tokenizer.json}; fails naming the file and the unsupported or malformed part. */
    public static HuggingFaceTokenizer read(Path file) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalArgumentException("tokenizer file " + file + " cannot be read: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("tokenizer file " + file + " is not a JSON object");
        }
        JsonNode normalizer = root.path("normalizer");
        boolean nfc = normalizer.path("type").asText("").equals("NFC");
        if (!normalizer.isMissingNode() && !normalizer.isNull() && !nfc) {
            throw unsupported(file, "normalizer", normalizer.path("type").asText("?"));
        }
        Pattern split = splitPattern(file, root.path("pre_tokenizer"));
        JsonNode model = root.path("model");
        if (!model.path("type").asText("BPE").equals("BPE") || !model.has("vocab") || !model.has("merges")) {
            throw unsupported(
                    file,
                    "model (only BPE with vocab and merges is)",
                    model.path("type").asText("?"));
        }
        BytePairMerger merger = BytePairMerger.of(
                file,
                model.get("vocab"),
                model.get("merges"),
                model.path("ignore_merges").asBoolean(false));
        return new HuggingFaceTokenizer("hf:" + file.getFileName(), split, nfc, merger);
    }

    /**
     * The pre-tokenizer's split pattern. Hugging Face tokenizers (Oniguruma), llama.cpp and Python read {@code \s}
     * as any Unicode white space; {@code java.util.regex} reads it as ASCII white space unless told otherwise, and
     * would split a run of no-break spaces differently from the server (measured against llama.cpp).
     */
    private static Pattern splitPattern(Path file, JsonNode pre) {
        String type = pre.path("type").asText("");
        if (type.equals("ByteLevel")) {
            return Pattern.compile(
                    pre.path("use_regex").asBoolean(true) ? GPT2_PATTERN : "(?s).+", Pattern.UNICODE_CHARACTER_CLASS);
        }
        if (type.equals("Sequence")) {
            String pattern = null;
            boolean byteLevel = false;
            for (JsonNode step : pre.path("pretokenizers")) {
                String stepType = step.path("type").asText("");
                if (stepType.equals("Split")
                        && pattern == null
                        && step.path("pattern").has("Regex")) {
                    pattern = step.path("pattern").path("Regex").asText();
                } else if (stepType.equals("ByteLevel")
                        && !step.path("use_regex").asBoolean(true)) {
                    byteLevel = true;
                } else {
                    throw unsupported(file, "pre_tokenizer step", stepType);
                }
            }
            if (pattern != null && byteLevel) {
                return Pattern.compile(pattern, Pattern.UNICODE_CHARACTER_CLASS);
            }
        }
        throw unsupported(file, "pre_tokenizer (byte-level BPE needs ByteLevel or Split + ByteLevel)", type);
    }

    private static IllegalArgumentException unsupported(Path file, String part, String value) {
        return new IllegalArgumentException("tokenizer file " + file + ": unsupported " + part + " \"" + value
                + "\"; supported are BPE models with byte-level pre-tokenization (GPT-2, Llama 3, Qwen 2)");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    protected int[] encode(String text) {
        String normalized = nfc ? Normalizer.normalize(text, Normalizer.Form.NFC) : text;
        List<int[]> pieces = new ArrayList<>();
        int total = 0;
        Matcher matcher = split.matcher(normalized);
        int last = 0;
        while (matcher.find()) {
            if (matcher.start() > last) {
                total += add(pieces, normalized.substring(last, matcher.start()));
            }
            total += add(pieces, matcher.group());
            last = matcher.end();
        }
        if (last < normalized.length()) {
            total += add(pieces, normalized.substring(last));
        }
        int[] ids = new int[total];
        int at = 0;
        for (int[] piece : pieces) {
            System.arraycopy(piece, 0, ids, at, piece.length);
            at += piece.length;
        }
        return ids;
    }

    private int add(List<int[]> pieces, String word) {
        if (word.isEmpty()) {
            return 0;
        }
        int[] ids = cache.computeIfAbsent(word, w -> merger.merge(ByteLevel.encode(w)));
        pieces.add(ids);
        return ids.length;
    }

    @Override
    protected String decode(int[] ids) {
        StringBuilder symbols = new StringBuilder();
        for (int id : ids) {
            symbols.append(merger.token(id));
        }
        return ByteLevel.decode(symbols.toString());
    }
}
