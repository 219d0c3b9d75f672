package dev.goodput.core.transport.internal.sse;

import java.util.ArrayList;
import java.util.List;

/** Records every event a parser dispatches, with the timestamp it came with. */
final class RecordingListener implements SseListener {

    /** One dispatched event and its timestamp. */
    record Received(String type, String data, long receivedNanos) {

        static Received of(String type, String data, long receivedNanos) {
            return new Received(type, data, receivedNanos);
        }

        /** Returns the event without its timestamp. */
        SseEvent event() {
            return new SseEvent(type, data);
        }
    }

    final List<Received> received = new ArrayList<>();

    @Override
    public void onEvent(SseEvent event, long receivedNanos) {
        received.add(new Received(event.type(), event.data(), receivedNanos));
    }

    List<SseEvent> events() {
        return received.stream().map(Received::event).toList();
    }
}
