package dev.goodput.core.transport.internal.sse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.transport.internal.sse.RecordingListener.Received;
import dev.goodput.core.transport.internal.sse.StreamFixtures.Fixture;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Splits realistic streams at every byte boundary and checks that the parser dispatches the same events
 * as for the unsplit stream, each with the timestamp of the read that held its terminating line end.
 */
class SseParserSplitTest {

    static List<Fixture> fixtures() {
        return StreamFixtures.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void should_dispatch_the_same_events_when_fed_one_byte_per_read(Fixture fixture) throws Exception {
        List<Received> whole = parseWhole(fixture.bytes());
        List<Received> byteByByte = parseByteByByte(fixture.bytes());

        assertThat(whole).hasSize(fixture.kinds().size());
        assertThat(events(byteByByte)).isEqualTo(events(whole));
        // Each event must be completed by a line end byte, or by finish (time = stream length).
        byte[] bytes = fixture.bytes();
        assertThat(byteByByte).allSatisfy(event -> {
            int offset = (int) event.receivedNanos();
            assertThat(offset == bytes.length || bytes[offset] == '\n' || bytes[offset] == '\r')
                    .as("event completed at byte %d", offset)
                    .isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void should_dispatch_the_same_events_with_the_completing_reads_time_for_every_split_in_two(Fixture fixture)
            throws Exception {
        byte[] bytes = fixture.bytes();
        List<Received> whole = parseWhole(bytes);
        long[] completedAt = completionOffsets(bytes);

        for (int split = 0; split <= bytes.length; split++) {
            RecordingListener listener = new RecordingListener();
            SseParser parser = new SseParser(listener);
            // Feed from a larger array so that offsets other than zero are exercised too.
            byte[] padded = new byte[bytes.length + 2];
            System.arraycopy(bytes, 0, padded, 1, bytes.length);
            parser.feed(padded, 1, split, 0);
            parser.feed(padded, 1 + split, bytes.length - split, 1);
            parser.finish(2);

            assertThat(listener.received)
                    .as("split at byte %d", split)
                    .isEqualTo(expected(whole, completedAt, bytes.length, split));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void should_dispatch_the_same_events_with_the_completing_reads_time_for_sampled_splits_in_three(Fixture fixture)
            throws Exception {
        byte[] bytes = fixture.bytes();
        List<Received> whole = parseWhole(bytes);
        long[] completedAt = completionOffsets(bytes);
        Random random = new Random(fixture.name().hashCode());

        for (int sample = 0; sample < 3000; sample++) {
            int first = random.nextInt(bytes.length + 1);
            int second = first + random.nextInt(bytes.length - first + 1);
            RecordingListener listener = new RecordingListener();
            SseParser parser = new SseParser(listener);
            // Each piece through a different ByteBuffer kind: direct, read-only heap, plain heap.
            parser.feed(ByteBuffer.allocateDirect(first).put(bytes, 0, first).flip(), 0);
            parser.feed(ByteBuffer.wrap(bytes, first, second - first).asReadOnlyBuffer(), 1);
            parser.feed(ByteBuffer.wrap(bytes, second, bytes.length - second), 2);
            parser.finish(3);

            List<Received> expected = new ArrayList<>();
            for (int i = 0; i < whole.size(); i++) {
                long offset = completedAt[i];
                long read = offset == bytes.length ? 3 : offset < first ? 0 : offset < second ? 1 : 2;
                expected.add(Received.of(whole.get(i).type(), whole.get(i).data(), read));
            }
            assertThat(listener.received)
                    .as("split at bytes %d and %d", first, second)
                    .isEqualTo(expected);
        }
    }

    /** Parses in one read (time 0), then finishes (time 1). */
    private static List<Received> parseWhole(byte[] bytes) throws SseFormatException {
        RecordingListener listener = new RecordingListener();
        SseParser parser = new SseParser(listener);
        parser.feed(bytes, 0, bytes.length, 0);
        parser.finish(1);
        return listener.received;
    }

    /** Feeds byte i with time i and finishes with time {@code bytes.length}. */
    private static List<Received> parseByteByByte(byte[] bytes) throws SseFormatException {
        RecordingListener listener = new RecordingListener();
        SseParser parser = new SseParser(listener);
        for (int i = 0; i < bytes.length; i++) {
            parser.feed(bytes, i, 1, i);
        }
        parser.finish(bytes.length);
        return listener.received;
    }

    /** Returns, per event, the offset of the byte that completed it, or the stream length for finish. */
    private static long[] completionOffsets(byte[] bytes) throws SseFormatException {
        return parseByteByByte(bytes).stream()
                .mapToLong(Received::receivedNanos)
                .toArray();
    }

    private static List<Received> expected(List<Received> whole, long[] completedAt, int length, int split) {
        List<Received> expected = new ArrayList<>();
        for (int i = 0; i < whole.size(); i++) {
            long read = completedAt[i] == length ? 2 : completedAt[i] < split ? 0 : 1;
            expected.add(Received.of(whole.get(i).type(), whole.get(i).data(), read));
        }
        return expected;
    }

    private static List<SseEvent> events(List<Received> received) {
        return received.stream().map(Received::event).toList();
    }
}
