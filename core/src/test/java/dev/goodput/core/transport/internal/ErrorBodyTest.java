package dev.goodput.core.transport.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.internal.redaction.SecretRedaction;
import dev.goodput.core.record.Phase;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.workload.RequestSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An error body is redacted whole before it is cut, so no cut can leave the start of the API key behind. */
class ErrorBodyTest {

    private static final String SECRET = "sk-goodput-test-4f9c2a7e1d3b5a6c8e0f";
    private static final String KEY_PREFIX = SECRET.substring(0, 4);

    @Test
    void should_leave_no_prefix_of_the_key_whatever_the_position_of_the_cut_within_it() {
        int lastStart = ErrorBody.MAX_CHARS + SECRET.length() + 2;
        for (int start = 0; start <= lastStart; start++) {
            String body = "x".repeat(start) + SECRET + "y".repeat(64);
            for (int readSize : new int[] {body.length(), 1000, 61}) {
                String reason = reasonOf(body, readSize);

                assertThat(reason)
                        .as("key at %d, reads of %d bytes", start, readSize)
                        .doesNotContain(KEY_PREFIX)
                        .startsWith("HTTP 401: ");
                assertThat(reason.length())
                        .as("key at %d, reads of %d bytes", start, readSize)
                        .isLessThanOrEqualTo("HTTP 401: ".length() + ErrorBody.MAX_CHARS);
                if (start + SECRET.length() <= ErrorBody.MAX_CHARS) {
                    assertThat(reason).contains(SecretRedaction.REDACTED);
                }
            }
        }
    }

    @Test
    void should_redact_the_key_inside_the_servers_json_message() {
        String body = "{\"error\":{\"message\":\"invalid key Bearer " + SECRET + "\",\"type\":\"AuthenticationError\","
                + "\"code\":401}}";

        assertThat(reasonOf(body, 5))
                .isEqualTo("HTTP 401: invalid key Bearer [redacted API key] (type: AuthenticationError, code: 401)");
    }

    @Test
    void should_keep_a_long_body_without_a_key_to_its_limit() {
        String body = "z".repeat(3 * ErrorBody.MAX_CHARS);

        assertThat(reasonOf(body, 1000)).isEqualTo("HTTP 401: " + "z".repeat(ErrorBody.MAX_CHARS));
    }

    private static String reasonOf(String body, int readSize) {
        List<RequestRecord> records = new ArrayList<>();
        InFlightRequest request = new InFlightRequest(
                0,
                Phase.MEASURED,
                RequestSpec.completion("a", 4),
                0,
                new StreamSettings(true, null, SecretRedaction.of(SECRET)),
                RetryRule.NEVER,
                new RequestListener() {
                    @Override
                    public void retrying(InFlightRequest retried, long waitNanos) {}

                    @Override
                    public void finished(InFlightRequest ended, FinishedRequest handover) {
                        records.add(handover.record());
                    }
                });
        MeasuredAttempt attempt = request.send(1, false);
        attempt.onHeaders(401, "text/plain", 2);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        for (int offset = 0; offset < bytes.length; offset += readSize) {
            attempt.onBytes(ByteBuffer.wrap(bytes, offset, Math.min(readSize, bytes.length - offset)), 3);
        }
        attempt.onEndOfStream(4);
        assertThat(records).hasSize(1);
        return records.get(0).errorDetail();
    }
}
