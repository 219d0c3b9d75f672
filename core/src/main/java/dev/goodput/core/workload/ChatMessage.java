package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Objects;
import org.apiguardian.api.API;

/**
 * One message of a chat completion request.
 *
 * @param role {@code "system"}, {@code "user"} or {@code "assistant"}
 * @param content the message text
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ChatMessage(String role, String content) {

    public ChatMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
    }

    /** Returns a user message. */
    public static ChatMessage user(String content) {
        return new ChatMessage("user", content);
    }

    /** Returns a system message. */
    public static ChatMessage system(String content) {
        return new ChatMessage("system", content);
    }
}
