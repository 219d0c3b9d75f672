package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.InvalidSettingException;
import java.util.List;
import org.apiguardian.api.API;

/**
 * One prompt of a dataset: either a plain prompt or chat messages, and an optional output length.
 *
 * @param prompt the prompt, or {@code null} when {@code messages} are given
 * @param messages the chat messages, or {@code null} when {@code prompt} is given
 * @param outputTokens the output length to ask for, or 0 to use the workload's default
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record DatasetEntry(String prompt, List<ChatMessage> messages, int outputTokens) {

    public DatasetEntry {
        if ((prompt == null) == (messages == null)) {
            throw InvalidSettingException.conflict(
                    name -> "a dataset entry needs either a " + name.apply("prompt") + " or " + name.apply("messages")
                            + ", not both or none",
                    "prompt",
                    "messages");
        }
        if (messages != null && messages.isEmpty()) {
            throw InvalidSettingException.of("messages", messages, "must not be empty");
        }
        if (outputTokens < 0) {
            throw InvalidSettingException.of("outputTokens", outputTokens, "must be at least 0 (0 for the default)");
        }
        messages = messages == null ? null : List.copyOf(messages);
    }

    /** A plain prompt with the workload's default output length. */
    public static DatasetEntry prompt(String prompt) {
        return new DatasetEntry(prompt, null, 0);
    }

    /** A plain prompt with its own output length. */
    public static DatasetEntry prompt(String prompt, int outputTokens) {
        return new DatasetEntry(prompt, null, outputTokens);
    }

    /** Chat messages with their own output length (0 for the default). */
    public static DatasetEntry messages(List<ChatMessage> messages, int outputTokens) {
        return new DatasetEntry(null, messages, outputTokens);
    }
}
