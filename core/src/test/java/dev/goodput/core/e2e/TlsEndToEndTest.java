package dev.goodput.core.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.goodput.core.testing.SseText;
import dev.goodput.core.transport.internal.Transports;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Streams over TLS from a local server whose self-signed certificate (made with the JDK's keytool for this test)
 * names {@code localhost} only, with the transport the system property {@code goodput.client.transport} names: the
 * client trusts what the JDK trusts (here, a trust store holding that certificate), streams over a kept-alive TLS
 * connection, and refuses the same server reached as {@code 127.0.0.1}, a name the certificate does not carry.
 */
class TlsEndToEndTest {

    private static final String PASSWORD = "changeit";

    @TempDir
    Path directory;

    @Test
    void should_stream_over_tls_from_a_trusted_server_and_refuse_one_whose_certificate_names_another_host()
            throws Exception {
        Path keys = directory.resolve("server.p12");
        Path certificate = directory.resolve("server.cer");
        Path trusted = directory.resolve("trusted.p12");
        keytool(
                "-genkeypair",
                "-alias",
                "server",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-dname",
                "CN=localhost",
                "-ext",
                "san=dns:localhost",
                "-validity",
                "2",
                "-keystore",
                keys.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD);
        keytool(
                "-exportcert",
                "-alias",
                "server",
                "-keystore",
                keys.toString(),
                "-storepass",
                PASSWORD,
                "-file",
                certificate.toString());
        keytool(
                "-importcert",
                "-noprompt",
                "-alias",
                "server",
                "-file",
                certificate.toString(),
                "-keystore",
                trusted.toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                PASSWORD);
        AtomicInteger streams = new AtomicInteger();
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        ExecutorService executor = Executors.newCachedThreadPool();
        try {
            server.setHttpsConfigurator(new HttpsConfigurator(serverTls(keys)));
            server.setExecutor(executor);
            server.createContext("/", exchange -> stream(exchange, streams));
            server.createContext(
                    "/metrics",
                    exchange -> { // no Prometheus metrics: the run notes it, sends no more
                        try (exchange) {
                            exchange.sendResponseHeaders(404, -1);
                        }
                    });
            server.start();
            int port = server.getAddress().getPort();

            List<String> lines = runInAnotherJvm(trusted, "https://localhost:" + port, "https://127.0.0.1:" + port);

            assertThat(lines).hasSize(2);
            assertThat(lines.get(0))
                    .as("the trusted server, by its name")
                    .startsWith("https://localhost:" + port + " 3 0 ");
            assertThat(lines.get(1))
                    .as("the same server by an address its certificate does not name")
                    .startsWith("https://127.0.0.1:" + port + " 0 3 ")
                    .contains("No subject alternative names matching IP address 127.0.0.1");
            assertThat(streams.get()).as("streams the server sent").isEqualTo(3);
        } finally {
            server.stop(0);
            executor.shutdownNow();
        }
    }

    private static void stream(HttpExchange exchange, AtomicInteger streams) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            for (String event : List.of(
                    SseText.roleChunk(),
                    SseText.contentChunk("a", null),
                    SseText.contentChunk("b", null),
                    SseText.contentChunk("c", "length"),
                    SseText.usageChunk(4, 3),
                    SseText.DONE)) {
                out.write(event.getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            streams.incrementAndGet();
        }
    }

    private static SSLContext serverTls(Path keys) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(keys.toFile())) {
            store.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        managers.init(store, PASSWORD.toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(managers.getKeyManagers(), null, null);
        return context;
    }

    private static List<String> runInAnotherJvm(Path trusted, String... baseUrls) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "-Djavax.net.ssl.trustStore=" + trusted,
                "-Djavax.net.ssl.trustStorePassword=" + PASSWORD,
                "-Djavax.net.ssl.trustStoreType=PKCS12",
                "-D" + Transports.SETTING + "=" + Transports.configuredName(),
                TlsRunInAnotherJvm.class.getName()));
        command.addAll(List.of(baseUrls));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS))
                .as("the run ended: %s", output)
                .isTrue();
        assertThat(process.exitValue()).as("exit status; output:%n%s", output).isZero();
        return output.lines().filter(line -> line.startsWith("https://")).toList();
    }

    private static void keytool(String... arguments) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue())
                .as("keytool %s: %s", arguments[0], output)
                .isZero();
    }
}
