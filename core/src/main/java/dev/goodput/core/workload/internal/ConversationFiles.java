package dev.goodput.core.workload.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.goodput.core.workload.ChatMessage;
import dev.goodput.core.workload.WorkloadFileException;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads multi-turn conversations from a JSON array or JSONL file, each item in the ShareGPT form
 * ({@code conversations: [{from, value}]}) or the OpenAI form ({@code messages: [{role, content}]}). Syntax
 * errors fail with the file and line; an item that is not a usable conversation is skipped and counted by
 * reason, so the caller can report what it left out.
 */
public final class ConversationFiles {

    /** Skip reason: the item has no {@code conversations} or {@code messages} array of string texts. */
    public static final String NOT_A_CONVERSATION = "not_a_conversation";
    /** Skip reason: a speaker is neither system, user nor assistant (ShareGPT: human, gpt). */
    public static final String UNKNOWN_ROLE = "unknown_role";
    /** Skip reason: after the leading system messages, user and assistant do not take turns, user first. */
    public static final String NOT_ALTERNATING = "not_alternating";
    /** Skip reason: no user message is followed by a reply, so no turn has an output length. */
    public static final String NO_ANSWERED_USER_TURN = "no_answered_user_turn";

    private ConversationFiles() {}

    /**
     * A conversation as read: leading system messages, then user messages each with the reply that followed it.
     */
    public record Conversation(List<ChatMessage> system, List<ChatMessage> users, List<ChatMessage> replies) {}

    /** The usable conversations of a file in file order, and the count of skipped items by reason. */
    public record Read(List<Conversation> conversations, Map<String, Integer> skipped) {}

    /** Reads the file; a file whose first character is {@code [} is a JSON array, any other JSONL. */
    public static Read read(Path file) {
        List<Conversation> conversations = new ArrayList<>();
        Map<String, Integer> skipped = new TreeMap<>();
        for (JsonNode item : items(file)) {
            Object parsed = parse(item);
            if (parsed instanceof Conversation conversation) {
                conversations.add(conversation);
            } else {
                skipped.merge((String) parsed, 1, Integer::sum);
            }
        }
        return new Read(conversations, skipped);
    }

    private static List<JsonNode> items(Path file) {
        String text = String.join("\n", Lines.all(file)).strip();
        if (text.isEmpty()) {
            throw new WorkloadFileException(file, 0, "is empty");
        }
        if (!text.startsWith("[")) {
            List<JsonNode> items = new ArrayList<>();
            Lines.read(file).forEach(line -> items.add(line.json()));
            return items;
        }
        List<JsonNode> items = new ArrayList<>();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8);
                JsonParser parser = Lines.JSON.createParser(reader)) {
            parser.nextToken();
            JsonToken token;
            while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
                if (token == null) {
                    throw new WorkloadFileException(
                            file, parser.currentLocation().getLineNr(), "ends inside the array");
                }
                items.add(parser.readValueAsTree());
            }
        } catch (NoSuchFileException e) {
            throw new WorkloadFileException(file, 0, "no such file");
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new WorkloadFileException(
                    file,
                    e.getLocation() == null ? 0 : e.getLocation().getLineNr(),
                    "is not JSON: " + dev.goodput.core.internal.JsonProblems.inFile(e));
        } catch (IOException e) {
            throw new WorkloadFileException(file, 0, "cannot be read: " + e);
        }
        return items;
    }

    /** Returns the conversation, or the reason to skip the item. */
    private static Object parse(JsonNode item) {
        boolean shareGpt = item.path("conversations").isArray();
        JsonNode turns = shareGpt ? item.get("conversations") : item.path("messages");
        if (!turns.isArray()) {
            return NOT_A_CONVERSATION;
        }
        List<ChatMessage> system = new ArrayList<>();
        List<ChatMessage> users = new ArrayList<>();
        List<ChatMessage> replies = new ArrayList<>();
        for (JsonNode turn : turns) {
            JsonNode speaker = turn.path(shareGpt ? "from" : "role");
            JsonNode text = turn.path(shareGpt ? "value" : "content");
            if (!speaker.isTextual() || !text.isTextual()) {
                return NOT_A_CONVERSATION;
            }
            String role = role(speaker.asText());
            if (role == null) {
                return UNKNOWN_ROLE;
            }
            ChatMessage message = new ChatMessage(role, text.asText());
            boolean userExpected = users.size() == replies.size();
            if (role.equals("system") && users.isEmpty()) {
                system.add(message);
            } else if (role.equals("user") && userExpected) {
                users.add(message);
            } else if (role.equals("assistant") && !userExpected) {
                replies.add(message);
            } else {
                return NOT_ALTERNATING;
            }
        }
        if (users.size() > replies.size()) {
            // A last question without a reply has no output length to ask for; the answered turns stay.
            users.remove(users.size() - 1);
        }
        if (users.isEmpty()) {
            return NO_ANSWERED_USER_TURN;
        }
        return new Conversation(List.copyOf(system), List.copyOf(users), List.copyOf(replies));
    }

    private static String role(String speaker) {
        return switch (speaker.toLowerCase(java.util.Locale.ROOT)) {
            case "system" -> "system";
            case "human", "user" -> "user";
            case "gpt", "assistant", "chatgpt", "bard", "bing", "model" -> "assistant";
            default -> null;
        };
    }
}
