package dev.goodput.core.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.core.Goodput;
import dev.goodput.core.PreflightException;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.internal.redaction.TextCut;
import dev.goodput.core.load.Load;
import dev.goodput.core.record.RequestRecord;
import dev.goodput.core.report.ConsoleReport;
import dev.goodput.core.report.Reports;
import dev.goodput.core.result.RunResult;
import dev.goodput.core.servermetrics.ScrapeSettings;
import dev.goodput.core.testing.HttpHeads;
import dev.goodput.core.workload.WorkloadSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

/**
 * Plants an API key, sent the documented way (an environment variable), in every place a server can put text and
 * across every cut Goodput makes of such text ({@link TextCut}, listed from the code), then searches every report
 * written, the console and the result for any 8-character piece of it. The server echoes the key it was sent, as
 * some proxies and gateways do: in an error body (JSON, plain, an echo of the request's headers), in each shape of
 * an error event, in a malformed event, in the {@code Content-Type} header, in the models list, and in its
 * {@code /metrics} page (a malformed line, a label value). Each text puts the key at a run of offsets that ends
 * past each cut, so that every cut falls inside the key somewhere. Runs with the preflight on and off; the
 * transport-netty module runs this class again with its transport.
 */
@ResourceLock(value = Resources.SYSTEM_OUT, mode = ResourceAccessMode.READ_WRITE)
@ResourceLock(value = Resources.SYSTEM_ERR, mode = ResourceAccessMode.READ_WRITE)
class ApiKeyPiecesNeverLeakTest {

    /** 35 characters, none of whose 8-character pieces occurs in anything Goodput writes by itself. */
    private static final String KEY = "Qv7NwL2xp9RtZ4mKc8YbJ3hFd6GsA1eU-k7";

    private static final int PIECE = 8;

    /** The scrapes answered with a valid page before the malformed ones start. */
    private static final int VALID_PAGES_FIRST = 3;

    /** How long the server takes over each completion request, in milliseconds. */
    private static final int PACE_MILLIS = 10;

    /** The offsets at which a text puts the key, counted back from a cut: wide enough for any text's own prefix. */
    private static final int[] BACK_FROM_CUT = {60, 52, 44, 38, 33, 29, 25, 21, 17, 13, 9, 6, 3, 1};

    @TempDir
    Path reports;

    /** Where a server puts text; each writes a whole response that carries {@code text}. */
    enum Place {
        ERROR_BODY_JSON(text -> response(401, "application/json", "{\"error\":{\"message\":\"" + text + "\"}}")),
        ERROR_BODY_FLAT(
                text -> response(400, "application/json", "{\"object\":\"error\",\"message\":\"" + text + "\"}")),
        ERROR_BODY_PLAIN(text -> response(403, "text/plain", text)),
        ERROR_BODY_ECHOED_HEADERS(text -> response(
                502, "application/json", "{\"headers\":{\"Authorization\":\"Bearer " + text + "\",\"Host\":\"x\"}}")),
        ERROR_BODY_WITHOUT_MESSAGE(
                text -> response(500, "application/json", "{\"error\":{\"detail\":\"" + text + "\"}}")),
        EVENT_ERROR_MESSAGE(text -> stream("data: {\"error\":{\"message\":\"" + text + "\",\"code\":500}}\n\n")),
        EVENT_ERROR_STRING(text -> stream("data: {\"error\":\"" + text + "\"}\n\n")),
        EVENT_FLAT_ERROR(text -> stream("data: {\"object\":\"error\",\"message\":\"" + text + "\"}\n\n")),
        EVENT_ERROR_WITHOUT_MESSAGE(text -> stream("data: {\"error\":{\"detail\":\"" + text + "\"}}\n\n")),
        EVENT_TYPE_ERROR_JSON(text -> stream("event: error\ndata: {\"message\":\"" + text + "\"}\n\n")),
        EVENT_TYPE_ERROR_PLAIN(text -> stream("event: error\ndata: " + text + "\n\n")),
        EVENT_NOT_JSON(text -> stream("data: " + text + "\n\n")),
        EVENT_BAD_SHAPE(
                text -> stream("data: {\"choices\":[{\"delta\":{\"content\":5}}],\"id\":\"" + text + "\"}\n\n")),
        EVENT_TRAILING(text -> stream("data: {\"choices\":[]} " + text + "\n\n")),
        CONTENT_TYPE_HEADER(text -> response(200, "text/html; charset=" + text, "<html></html>"));

        private final Function<String, String> response;

        Place(Function<String, String> response) {
            this.response = response;
        }
    }

    /** One planted text: a place, and the text the server puts there (letters, then the key, then more letters). */
    record Plant(Place place, String padding) {
        String text(String key) {
            return padding + key + "zzzz";
        }
    }

    /** Every place, with the key starting at each offset back from every cut length. */
    static List<Plant> plants() {
        List<Plant> plants = new ArrayList<>();
        int[] cuts = Arrays.stream(TextCut.values())
                .mapToInt(TextCut::chars)
                .distinct()
                .sorted()
                .toArray();
        for (Place place : Place.values()) {
            for (int cut : cuts) {
                for (int back : BACK_FROM_CUT) {
                    plants.add(new Plant(place, "x".repeat(Math.max(0, cut - back))));
                }
            }
        }
        return plants;
    }

    @Test
    void should_write_no_piece_of_a_key_that_the_server_echoes_in_every_place_across_every_cut_with_the_preflight_off()
            throws Exception {
        List<Plant> plants = plants();
        try (EchoingServer server = new EchoingServer(plants, false)) {
            String console = captureConsole(() -> {
                RunResult result = run(server, plants.size(), false);
                System.out.println(ConsoleReport.format(result));
                Reports.writeAll(result, reports.resolve("off"));
                assertThat(result.records()).hasSize(plants.size());
                assertThat(result.records())
                        .extracting(RequestRecord::errorDetail)
                        .as("the key came back and was redacted")
                        .anyMatch(detail -> detail != null && detail.contains("[redacted API key]"));
                System.out.println(result);
                result.records().forEach(record -> System.out.println(record.errorDetail()));
                result.serverMetrics().failures().forEach(System.out::println);
            });
            assertThat(server.authorizations()).isNotEmpty().containsOnly("Bearer " + KEY);
            assertThat(server.scrapes())
                    .as("scrapes of /metrics, malformed ones among them")
                    .isGreaterThanOrEqualTo(VALID_PAGES_FIRST + 4);
            assertNoPieceOfTheKey(console);
        }
    }

    @Test
    void should_write_no_piece_of_a_key_that_the_server_echoes_after_a_passed_preflight() throws Exception {
        List<Plant> plants = plants();
        try (EchoingServer server = new EchoingServer(plants, true)) {
            String console = captureConsole(() -> {
                RunResult result = run(server, plants.size(), true);
                System.out.println(ConsoleReport.format(result));
                Reports.writeAll(result, reports.resolve("on"));
                result.records().forEach(record -> System.out.println(record.errorDetail()));
            });
            assertNoPieceOfTheKey(console);
        }
    }

    @Test
    void should_keep_every_piece_of_the_key_out_of_the_preflights_failures() throws Exception {
        List<Plant> plants = new ArrayList<>();
        for (Place place : Place.values()) {
            for (int cut : new int[] {TextCut.ERROR_BODY.chars(), TextCut.SERVER_ERROR_MESSAGE.chars(), 120, 80}) {
                for (int back : new int[] {44, 25, 9}) {
                    plants.add(new Plant(place, "x".repeat(cut - back)));
                }
            }
        }
        StringBuilder console = new StringBuilder();
        for (Plant plant : plants) {
            try (EchoingServer server = new EchoingServer(List.of(plant), false)) {
                console.append(captureConsole(() -> assertThatThrownBy(() -> run(server, 1, true))
                        .isInstanceOfSatisfying(PreflightException.class, e -> System.out.println(e.getMessage()))));
            }
        }
        for (int back : new int[] {60, 33, 17, 9, 3}) {
            String padding = "x".repeat(TextCut.SERVER_ERROR_MESSAGE.chars() - back);
            try (EchoingServer server = new EchoingServer(List.of(), false).echoingInTheModels(padding)) {
                console.append(captureConsole(() -> assertThatThrownBy(() -> run(server, 1, true))
                        .isInstanceOfSatisfying(PreflightException.class, e -> System.out.println(e.getMessage()))));
            }
        }
        assertThat(console).contains("preflight failed");
        assertNoPieceOfTheKey(console.toString());
    }

    @Test
    void should_show_no_piece_of_a_key_given_in_the_servers_url_or_an_extra_scrape_endpoints() throws Exception {
        try (EchoingServer server = new EchoingServer(plants().subList(0, 8), false)) {
            String console = captureConsole(() -> {
                RunResult result = Goodput.newRun(ServerEndpoint.of(server.baseUrl() + "/?api_key=" + KEY, "echo")
                                .withApiKeyFromEnvironment("GOODPUT_PLANTED_KEY")
                                .withEnvironment(Map.of("GOODPUT_PLANTED_KEY", KEY)::get))
                        .workload(WorkloadSpec.synthetic()
                                .inputTokens(4)
                                .outputTokens(2)
                                .build())
                        .load(Load.concurrency(2).requests(8))
                        .serverMetrics(ScrapeSettings.DEFAULT
                                .withInterval(Duration.ofMillis(100))
                                .withExtraEndpoints(List.of(URI.create(server.baseUrl() + "/metrics?x=" + KEY))))
                        .preflight(false)
                        .run();
                System.out.println(ConsoleReport.format(result));
                System.out.println(result.spec().server());
                Reports.writeAll(result, reports.resolve("url"));
            });
            assertThat(console).contains("api_key=[redacted]");
            assertNoPieceOfTheKey(console);
        }
    }

    private static RunResult run(EchoingServer server, int requests, boolean preflight) {
        return Goodput.newRun(ServerEndpoint.of(server.baseUrl(), "echo")
                        .withApiKeyFromEnvironment("GOODPUT_PLANTED_KEY")
                        .withEnvironment(Map.of("GOODPUT_PLANTED_KEY", KEY)::get))
                .workload(
                        WorkloadSpec.synthetic().inputTokens(4).outputTokens(2).build())
                .load(Load.concurrency(4).requests(requests))
                .serverMetrics(ScrapeSettings.DEFAULT.withInterval(Duration.ofMillis(100)))
                .preflight(preflight)
                .run();
    }

    private void assertNoPieceOfTheKey(String console) throws IOException {
        List<Path> written;
        try (Stream<Path> files = Files.walk(reports)) {
            written = files.filter(Files::isRegularFile).toList();
        }
        List<String> texts = new ArrayList<>();
        texts.add(console);
        for (Path file : written) {
            texts.add(Files.readString(file));
        }
        assertThat(console).isNotEmpty();
        for (int start = 0; start + PIECE <= KEY.length(); start++) {
            String piece = KEY.substring(start, start + PIECE);
            for (int i = 0; i < texts.size(); i++) {
                String where = i == 0 ? "the console" : written.get(i - 1).toString();
                int at = texts.get(i).indexOf(piece);
                assertThat(at)
                        .as(
                                "'%s' (the key's characters %d to %d) in %s: ...%s...",
                                piece, start, start + PIECE, where, at < 0 ? "" : excerpt(texts.get(i), at))
                        .isNegative();
            }
        }
    }

    private static String excerpt(String text, int at) {
        return text.substring(Math.max(0, at - 60), Math.min(text.length(), at + 60));
    }

    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    private static String captureConsole(Action action) throws Exception {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(console, true, StandardCharsets.UTF_8);
        System.setOut(capture);
        System.setErr(capture);
        try {
            action.run();
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return console.toString(StandardCharsets.UTF_8);
    }

    private static String response(int status, String contentType, String body) {
        return "HTTP/1.1 " + status + " Status\r\nContent-Type: " + contentType + "\r\nConnection: close\r\n\r\n"
                + body;
    }

    private static String stream(String events) {
        return response(
                200,
                "text/event-stream",
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"}}]}\n\n" + events);
    }

    private static final String GOOD_STREAM = response(
            200,
            "text/event-stream",
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"},\"finish_reason\":\"length\"}]}\n\n"
                    + "data: [DONE]\n\n");

    /**
     * A loopback server on plain sockets, one connection per request, that answers the n-th completion request
     * with the n-th plant around the key it was sent, its models list with the model (or the key), and its
     * {@code /metrics} alternately with a valid page whose label value is the key and a page whose malformed line
     * holds the key at the next offset.
     */
    private static final class EchoingServer implements AutoCloseable {
        private final ServerSocket socket;
        private final ExecutorService connections = Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable, "echoing-server");
            thread.setDaemon(true);
            return thread;
        });
        private final List<Plant> plants;
        private final boolean firstStreamHealthy;
        private final AtomicInteger completions = new AtomicInteger();
        private final AtomicInteger scrapes = new AtomicInteger();
        private final List<String> authorizations = new CopyOnWriteArrayList<>();
        private volatile String modelsPadding;

        EchoingServer(List<Plant> plants, boolean firstStreamHealthy) throws IOException {
            this.plants = plants;
            this.firstStreamHealthy = firstStreamHealthy;
            socket = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
            connections.execute(this::acceptLoop);
        }

        EchoingServer echoingInTheModels(String padding) {
            modelsPadding = padding;
            return this;
        }

        String baseUrl() {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }

        List<String> authorizations() {
            return authorizations;
        }

        int scrapes() {
            return scrapes.get();
        }

        private void acceptLoop() {
            while (!socket.isClosed()) {
                try {
                    Socket connection = socket.accept();
                    connections.execute(() -> serve(connection));
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private void serve(Socket connection) {
            try (connection) {
                InputStream in = connection.getInputStream();
                String head = HttpHeads.readHead(in);
                in.readNBytes(HttpHeads.contentLength(head));
                String authorization = head.lines()
                        .filter(line -> line.regionMatches(true, 0, "Authorization:", 0, 14))
                        .map(line -> line.substring(14).strip())
                        .findFirst()
                        .orElse("");
                authorizations.add(authorization);
                String key = authorization.startsWith("Bearer ") ? authorization.substring(7) : authorization;
                String answer;
                if (head.startsWith("GET /metrics")) {
                    answer = metrics(scrapes.getAndIncrement(), key);
                } else if (head.startsWith("GET /v1/models ")) {
                    answer = modelsPadding == null
                            ? response(200, "application/json", "{\"data\":[{\"id\":\"echo\"}]}")
                            : response(
                                    200, "application/json", "{\"data\":[{\"id\":\"" + modelsPadding + key + "\"}]}");
                } else {
                    int arrival = completions.getAndIncrement();
                    // Paced, so that the run lasts long enough for a scrape at each of the metrics' offsets.
                    Thread.sleep(PACE_MILLIS);
                    if (firstStreamHealthy && arrival == 0 || plants.isEmpty()) {
                        answer = GOOD_STREAM;
                    } else {
                        Plant plant = plants.get((firstStreamHealthy ? arrival - 1 : arrival) % plants.size());
                        answer = plant.place().response.apply(plant.text(key));
                    }
                }
                OutputStream out = connection.getOutputStream();
                out.write(answer.getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException e) {
                // The client went away or the server is closing; nothing to do.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private static String metrics(int scrape, String key) {
            // The first pages are valid: a server whose first answered page is malformed has no metrics for the
            // scraper, and on a busy machine the very first scrape may time out.
            if (scrape < VALID_PAGES_FIRST || scrape % 2 == 0) {
                return response(
                        200,
                        "text/plain; version=0.0.4",
                        "# TYPE echo_requests counter\necho_requests{authorization=\"Bearer " + key + "\"} " + scrape
                                + "\n");
            }
            int back = BACK_FROM_CUT[(scrape / 2) % BACK_FROM_CUT.length];
            String padding = "x".repeat(TextCut.METRICS_LINE.chars() - back);
            String line = IntStream.of(scrape % 4)
                    .mapToObj(
                            kind -> kind == 1 ? "echo_bad " + padding + key : "echo_bad{a=\"" + padding + key + "\" 1")
                    .findFirst()
                    .orElseThrow();
            return response(200, "text/plain; version=0.0.4", "echo_ok 1\n" + line + "\n");
        }

        @Override
        public void close() throws IOException {
            socket.close();
            connections.shutdownNow();
        }
    }
}
