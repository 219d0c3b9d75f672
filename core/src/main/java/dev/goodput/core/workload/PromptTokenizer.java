package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.workload.internal.HuggingFaceTokenizer;
import dev.goodput.core.workload.internal.SimulatedTokenizer;
import dev.goodput.core.workload.internal.TiktokenTokenizer;
import dev.goodput.core.workload.internal.Tokenizer;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.apiguardian.api.API;

/**
 * A named tokenizer that counts text and builds prompts of an exact token count. Safe to call from several
 * threads.
 *
 * <p>Three kinds: {@link #simulated()} (the simulated server's rule: a token is a maximal run of
 * non-whitespace), {@link #tiktoken(String)} (OpenAI's encodings through jtokkit, inside its jar) and {@link
 * #huggingFace(Path)} (a local {@code tokenizer.json} with a byte-level BPE model, read in pure Java). Counts
 * are of raw text; a chat server adds its template's tokens, which the result reports as the client-vs-server
 * prompt difference.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface PromptTokenizer extends TokenCounter {

    /** Returns the name recorded in the result, for example {@code "tiktoken:cl100k_base"}. */
    String name();

    /**
     * Returns text that starts with {@code prefix} and counts exactly {@code totalTokens} tokens, the rest being
     * pseudo-words drawn with {@code random}.
     *
     * @throws IllegalArgumentException if {@code prefix} alone has more than {@code totalTokens} tokens
     * @throws IllegalStateException if no text of exactly that count was found (not seen with the supported
     *     tokenizers)
     */
    String extend(String prefix, SplittableRandom random, int totalTokens);

    /** The simulated server's rule: a token is a maximal run of non-whitespace characters. */
    static PromptTokenizer simulated() {
        return wrap(SimulatedTokenizer.INSTANCE);
    }

    /**
     * A tiktoken encoding by name: {@code r50k_base}, {@code p50k_base}, {@code p50k_edit}, {@code cl100k_base}
     * or {@code o200k_base}.
     *
     * @throws InvalidSettingException naming the unknown encoding and the known ones
     */
    static PromptTokenizer tiktoken(String encoding) {
        return wrap(TiktokenTokenizer.named(encoding));
    }

    /**
     * A Hugging Face {@code tokenizer.json} read from a local file: BPE models with a byte-level pre-tokenizer
     * (GPT-2, Llama 3, Qwen 2 and similar). Other models fail here with the file and the unsupported part.
     *
     * @throws IllegalArgumentException naming the file and what is missing, malformed or unsupported
     */
    static PromptTokenizer huggingFace(Path tokenizerJson) {
        return wrap(HuggingFaceTokenizer.read(tokenizerJson));
    }

    /** Parses {@code "simulated"}, {@code "tiktoken:<encoding>"} or {@code "hf:<path to tokenizer.json>"}. */
    static PromptTokenizer parse(String name) {
        if (name.equals("simulated") || name.isEmpty()) {
            return simulated();
        }
        if (name.startsWith("tiktoken:")) {
            return tiktoken(name.substring("tiktoken:".length()));
        }
        if (name.startsWith("hf:")) {
            return huggingFace(Path.of(name.substring("hf:".length())));
        }
        throw InvalidSettingException.of(
                "tokenizer",
                "\"" + name + "\"",
                "must be \"simulated\", \"tiktoken:<encoding>\" or \"hf:<path to tokenizer.json>\"");
    }

    /**
     * Presents an internal implementation as this API type. The implementations do not implement this interface
     * themselves: this interface creates them, so if they also depended on it the two would form an import circle.
     */
    private static PromptTokenizer wrap(Tokenizer tokenizer) {
        return new PromptTokenizer() {
            @Override
            public String name() {
                return tokenizer.name();
            }

            @Override
            public int count(String text) {
                return tokenizer.count(text);
            }

            @Override
            public String extend(String prefix, SplittableRandom random, int totalTokens) {
                return tokenizer.extend(prefix, random, totalTokens);
            }

            @Override
            public String toString() {
                return tokenizer.name();
            }
        };
    }
}
