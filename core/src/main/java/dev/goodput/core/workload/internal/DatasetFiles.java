package dev.goodput.core.workload.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.goodput.core.workload.ChatMessage;
import dev.goodput.core.workload.DatasetEntry;
import dev.goodput.core.workload.PromptTokenizer;
import dev.goodput.core.workload.WorkloadFileException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Readers of dataset files; every error names the file, the line and the field. */
public final class DatasetFiles {

    private DatasetFiles() {}

    /** ShareGPT JSON: first human turn as prompt, the following reply's length as output length. */
    public static List<DatasetEntry> shareGpt(Path file, PromptTokenizer tokenizer, boolean vllmFilters) {
        List<DatasetEntry> entries = new ArrayList<>();
        try (JsonParser parser = Lines.JSON.createParser(Files.newBufferedReader(file))) {
            if (parser.nextToken() != JsonToken.START_ARRAY) {
                throw new WorkloadFileException(file, 1, "must be a JSON array of conversations");
            }
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                long line = parser.currentLocation().getLineNr();
                JsonNode item = parser.readValueAsTree();
                JsonNode turns = item.path("conversations");
                if (!turns.isArray()) {
                    throw new WorkloadFileException(
                            file,
                            line,
                            "conversations must be an array, was " + Lines.abbreviate(String.valueOf(turns)));
                }
                DatasetEntry entry = firstExchange(turns, tokenizer, vllmFilters);
                if (entry != null) {
                    entries.add(entry);
                }
            }
        } catch (NoSuchFileException e) {
            throw new WorkloadFileException(file, 0, "no such file");
        } catch (IOException e) {
            throw new WorkloadFileException(file, 0, "is not valid JSON: " + e.getMessage());
        }
        if (entries.isEmpty()) {
            throw new WorkloadFileException(file, 0, "holds no conversation with a human turn and a reply");
        }
        return entries;
    }

    private static DatasetEntry firstExchange(JsonNode turns, PromptTokenizer tokenizer, boolean vllmFilters) {
        for (int i = 0; i + 1 < turns.size(); i++) {
            if (turns.get(i).path("from").asText().equals("human")) {
                String prompt = turns.get(i).path("value").asText("");
                int prompted = tokenizer.count(prompt);
                int replied = tokenizer.count(turns.get(i + 1).path("value").asText(""));
                boolean tooShort = prompted < 4 || replied < 4;
                boolean tooLong = prompted > 1024 || prompted + replied > 2048;
                if (replied < 1 || prompted < 1 || (vllmFilters && (tooShort || tooLong))) {
                    return null;
                }
                return DatasetEntry.prompt(prompt, replied);
            }
        }
        return null;
    }

    /** JSONL with {@code prompt} or {@code messages} and optional {@code output_tokens}. */
    public static List<DatasetEntry> jsonl(Path file) {
        List<DatasetEntry> entries = new ArrayList<>();
        for (Lines.Line line : Lines.read(file)) {
            JsonNode row = line.json();
            int output = 0;
            if (row.has("output_tokens")) {
                output = line.positive(row, "output_tokens");
            }
            if (row.has("prompt") == row.has("messages")) {
                throw line.error("needs either \"prompt\" or \"messages\", not both or none");
            }
            if (row.has("prompt")) {
                if (!row.get("prompt").isTextual()) {
                    throw line.error(
                            "prompt must be a string, was " + Lines.abbreviate(String.valueOf(row.get("prompt"))));
                }
                entries.add(DatasetEntry.prompt(row.get("prompt").asText(), output));
            } else {
                entries.add(DatasetEntry.messages(messages(line, row.get("messages")), output));
            }
        }
        return entries;
    }

    private static List<ChatMessage> messages(Lines.Line line, JsonNode node) {
        if (!node.isArray() || node.isEmpty()) {
            throw line.error("messages must be a non-empty array of {role, content}, was "
                    + Lines.abbreviate(String.valueOf(node)));
        }
        List<ChatMessage> messages = new ArrayList<>();
        for (JsonNode message : node) {
            if (!message.path("role").isTextual() || !message.path("content").isTextual()) {
                throw line.error("every message needs a string role and content, had " + message);
            }
            messages.add(new ChatMessage(
                    message.get("role").asText(), message.get("content").asText()));
        }
        return messages;
    }
}
