package dev.goodput.core.internal.sse;

/**
 * One server-sent event as the parser dispatched it.
 *
 * @param type the value of the last {@code event:} field, or {@code "error"} for a bare {@code error:} field
 *     (older llama.cpp builds), or {@code null} when the event named no type
 * @param data the {@code data:} lines joined with {@code '\n'}, or the value of a bare {@code error:} field
 */
public record SseEvent(String type, String data) {}
