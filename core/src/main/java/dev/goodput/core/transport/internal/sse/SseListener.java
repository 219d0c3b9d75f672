package dev.goodput.core.transport.internal.sse;

/** Receives events from an {@link SseParser}, each with the time of the read that completed it. */
@FunctionalInterface
public interface SseListener {

    /**
     * Called once per dispatched event, in stream order, on the thread that fed the parser.
     *
     * @param event the event
     * @param receivedNanos the clock reading taken for the read whose bytes completed this event
     */
    void onEvent(SseEvent event, long receivedNanos);
}
