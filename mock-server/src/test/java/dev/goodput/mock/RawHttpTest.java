package dev.goodput.mock;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The HTTP/1.1 server handles what clients send on the wire")
class RawHttpTest {

    private static final String BODY = "{\"model\":\"m\",\"prompt\":\"hi\",\"max_tokens\":2,\"ignore_eos\":true}";

    private MockServer server;
    private ScriptedEngine engine;

    @BeforeEach
    void start() {
        engine = new ScriptedEngine(100, 1, 20);
        server = MockServer.start(
                MockServerConfig.builder()
                        .modelName("m")
                        .performanceModel(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(1)))
                        .build(),
                engine);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        socket.setSoTimeout(10_000);
        return socket;
    }

    /** Reads one response with a content-length body. */
    private static String readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int length = Integer.parseInt(text.replaceAll("(?s).*content-length: (\\d+).*", "$1"));
        return text + new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("a kept-alive connection serves requests one after another")
    void keep_alive_serves_several_requests() throws Exception {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            for (int i = 0; i < 3; i++) {
                out.write(("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: " + BODY.length() + "\r\n\r\n"
                                + BODY)
                        .getBytes(StandardCharsets.UTF_8));
                out.flush();
                assertThat(readResponse(socket.getInputStream()))
                        .startsWith("HTTP/1.1 200 OK")
                        .contains("\"completion_tokens\":2");
            }
        }
    }

    @Test
    @DisplayName("a chunked request body with Expect: 100-continue is read whole")
    void chunked_request_body_with_expect_continue() throws Exception {
        try (Socket socket = connect()) {
            OutputStream out = socket.getOutputStream();
            out.write(
                    "POST /v1/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n"
                            .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            byte[] expected = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
            assertThat(socket.getInputStream().readNBytes(expected.length)).isEqualTo(expected);
            String half = BODY.substring(0, 10);
            String rest = BODY.substring(10);
            out.write((Integer.toHexString(half.length()) + "\r\n" + half + "\r\n" + Integer.toHexString(rest.length())
                            + "\r\n" + rest + "\r\n0\r\n\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            assertThat(readResponse(socket.getInputStream())).startsWith("HTTP/1.1 200 OK");
        }
    }

    @Test
    @DisplayName("a malformed request line gets 400 and the connection closes")
    void malformed_request_is_400() throws Exception {
        try (Socket socket = connect()) {
            socket.getOutputStream().write("NONSENSE\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(response).startsWith("HTTP/1.1 400 Bad Request").contains("\"code\":400");
        }
    }

    @Test
    @DisplayName("a client that goes away mid-stream cancels the generation and is recorded as aborted")
    void client_disconnect_cancels_the_generation() throws Exception {
        String stream = "{\"model\":\"m\",\"prompt\":\"hi\",\"max_tokens\":200,\"ignore_eos\":true,\"stream\":true}";
        try (Socket socket = connect()) {
            socket.getOutputStream()
                    .write(("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: " + stream.length()
                                    + "\r\n\r\n" + stream)
                            .getBytes(StandardCharsets.UTF_8));
            byte[] some = new byte[64];
            assertThat(socket.getInputStream().read(some)).isPositive();
        }

        RequestTruth truth = server.awaitGroundTruth(1, Duration.ofSeconds(10)).get(0);
        assertThat(truth.finishReason()).isEqualTo("abort");
        assertThat(truth.completionTokens()).isLessThan(200);
    }
}
