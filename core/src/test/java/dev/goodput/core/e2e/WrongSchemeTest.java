package dev.goodput.core.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.goodput.core.Goodput;
import dev.goodput.core.PreflightException;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.load.Load;
import dev.goodput.core.workload.WorkloadSpec;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A URL whose scheme the server does not speak: the preflight's failure says which scheme the server does speak,
 * where it used to say only {@code no answer within 5 s} (an {@code https} URL against llama-server's plain HTTP).
 */
class WrongSchemeTest {

    private static final WorkloadSpec CHAT =
            WorkloadSpec.synthetic().inputTokens(8).outputTokens(4).build();

    @TempDir
    Path directory;

    @Test
    void should_say_that_a_server_behind_an_https_url_answers_plain_http() throws Exception {
        try (PlainHttpServer server = new PlainHttpServer()) {
            String url = "https://127.0.0.1:" + server.port();

            assertThatThrownBy(() -> Goodput.newRun(ServerEndpoint.of(url, "m"))
                            .workload(CHAT)
                            .load(Load.concurrency(1).requests(2))
                            .run())
                    .isInstanceOf(PreflightException.class)
                    .hasMessageStartingWith("preflight failed: GET " + url + "/v1/models: ")
                    .hasMessageEndingWith("; the server at 127.0.0.1:" + server.port() + " answers plain HTTP, not"
                            + " TLS: its URL should start with http://, not https://");
        }
    }

    @Test
    void should_say_that_a_server_behind_an_http_url_speaks_tls() throws Exception {
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(selfSignedTls()));
        server.createContext("/", exchange -> {
            try (exchange) {
                exchange.sendResponseHeaders(404, -1);
            }
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort();

            assertThatThrownBy(() -> Goodput.newRun(ServerEndpoint.of(url, "m"))
                            .workload(CHAT)
                            .load(Load.concurrency(1).requests(2))
                            .run())
                    .isInstanceOf(PreflightException.class)
                    .hasMessageStartingWith("preflight failed: GET " + url + "/v1/models: ")
                    .hasMessageEndingWith(
                            "; the server at 127.0.0.1:" + server.getAddress().getPort()
                                    + " speaks TLS: its URL should start with https://, not http://");
        } finally {
            server.stop(0);
        }
    }

    private SSLContext selfSignedTls() throws Exception {
        Path keys = directory.resolve("server.p12");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-validity",
                "2",
                "-keystore",
                keys.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                "changeit"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("keytool: %s", output).isZero();
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(keys.toFile())) {
            store.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        managers.init(store, "changeit".toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(managers.getKeyManagers(), null, null);
        return context;
    }

    /**
     * A plain-HTTP server that, as llama-server's does, reads a request line and answers it, and given a TLS
     * handshake instead waits for a line that never comes, saying nothing.
     */
    private static final class PlainHttpServer implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> connections = new java.util.concurrent.CopyOnWriteArrayList<>();

        PlainHttpServer() throws IOException {
            Thread acceptor = new Thread(this::accept, "plain-http-server");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        int port() {
            return socket.getLocalPort();
        }

        private void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket connection = socket.accept();
                    connections.add(connection);
                    Thread reader = new Thread(() -> serve(connection), "plain-http-connection");
                    reader.setDaemon(true);
                    reader.start();
                } catch (IOException e) {
                    return;
                }
            }
        }

        private static void serve(Socket connection) {
            try (connection) {
                InputStream in = connection.getInputStream();
                StringBuilder head = new StringBuilder();
                int b;
                while ((b = in.read()) >= 0) {
                    head.append((char) b);
                    if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                        connection
                                .getOutputStream()
                                .write("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                                        .getBytes(StandardCharsets.US_ASCII));
                        return;
                    }
                }
            } catch (IOException e) {
                // the client went away
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (Socket connection : connections) {
                connection.close();
            }
        }
    }
}
