package dev.goodput.core.servermetrics.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.goodput.core.NanoClock;
import dev.goodput.core.ServerEndpoint;
import dev.goodput.core.servermetrics.ScrapeSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The scraper against a local exposition server: baseline and closing scrapes, failures, a server without one. */
class ScraperTest {

    private HttpServer http;
    private final AtomicInteger preemptions = new AtomicInteger();
    private final AtomicInteger loadingAnswers = new AtomicInteger();
    private final Map<String, List<String>> authorizations = new ConcurrentHashMap<>();

    @BeforeEach
    void start() throws IOException {
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/metrics", exchange -> {
            record(exchange);
            int count = preemptions.incrementAndGet();
            respond(
                    exchange,
                    200,
                    "# TYPE vllm:num_preemptions_total counter\n"
                            + "vllm:num_preemptions_total{engine=\"0\",model_name=\"m\"} " + count + ".0\n"
                            + "# TYPE vllm:num_requests_waiting gauge\n"
                            + "vllm:num_requests_waiting{engine=\"0\",model_name=\"m\"} 3.0\n");
        });
        http.createContext("/broken/metrics", exchange -> {
            record(exchange);
            respond(exchange, 500, "boom");
        });
        http.createContext("/slow/metrics", exchange -> {
            record(exchange);
            try {
                Thread.sleep(600);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            respond(exchange, 200, "x 1\n");
        });
        http.createContext("/stalled/metrics", exchange -> {
            record(exchange);
            // A head, then a body that never ends: the scrape's timeout must cover the body too.
            exchange.sendResponseHeaders(200, 0);
            exchange.getResponseBody().write("vllm:num_requests_running 1\n".getBytes(StandardCharsets.UTF_8));
            exchange.getResponseBody().flush();
            try {
                Thread.sleep(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        http.createContext("/loading/metrics", exchange -> {
            record(exchange);
            // llama-server answers 503 on every path until its model is loaded, then serves its metrics.
            if (loadingAnswers.getAndIncrement() < 2) {
                respond(exchange, 503, "{\"error\":{\"code\":503,\"message\":\"Loading model\"}}");
            } else {
                respond(exchange, 200, "# TYPE llamacpp:requests_processing gauge\nllamacpp:requests_processing 1\n");
            }
        });
        http.createContext("/none/metrics", exchange -> {
            record(exchange);
            respond(exchange, 404, "not found");
        });
        http.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(runnable -> {
            Thread thread = new Thread(runnable);
            thread.setDaemon(true);
            return thread;
        }));
        http.start();
    }

    @AfterEach
    void stop() {
        http.stop(0);
    }

    private void record(HttpExchange exchange) {
        authorizations
                .computeIfAbsent(exchange.getRequestURI().getPath(), path -> new CopyOnWriteArrayList<>())
                .add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private String base() {
        return "http://127.0.0.1:" + http.getAddress().getPort();
    }

    private ServerEndpoint server(String path) {
        return ServerEndpoint.of(base() + path, "m")
                .withApiKeyFromEnvironment("SCRAPER_TEST_KEY")
                .withEnvironment(name -> name.equals("SCRAPER_TEST_KEY") ? "sk-secret" : null);
    }

    @Test
    void should_scrape_a_baseline_before_and_a_last_reading_after_and_count_the_increase_between() {
        Scraper scraper = Scraper.start(ScrapeSettings.DEFAULT, server(""), NanoClock.system());
        ScrapeLog log = scraper.finish();

        assertThat(log.scrapes()).isGreaterThanOrEqualTo(2);
        assertThat(log.failedScrapes()).isZero();
        ScrapeLog.Track track = log.track(ServerSignal.PREEMPTIONS);
        assertThat(track.increase()).isEqualTo(track.last() - track.first()).isEqualTo(log.scrapes() - 1);
        assertThat(log.track(ServerSignal.WAITING_REQUESTS).max()).isEqualTo(3);
        assertThat(log.endpoints()).containsExactly(base() + "/metrics");
    }

    @Test
    void should_send_the_api_key_to_the_servers_own_metrics_only() {
        ScrapeSettings settings =
                ScrapeSettings.DEFAULT.withExtraEndpoints(List.of(URI.create(base() + "/broken/metrics")));
        Scraper.start(settings, server(""), NanoClock.system()).finish();

        assertThat(authorizations.get("/metrics")).isNotEmpty().allMatch(value -> value.equals("Bearer sk-secret"));
        assertThat(authorizations.get("/broken/metrics")).isNotEmpty().allMatch(value -> value.equals("null"));
    }

    @Test
    void should_keep_scraping_on_its_own_thread_at_the_interval() throws InterruptedException {
        ScrapeSettings settings = ScrapeSettings.DEFAULT.withInterval(Duration.ofMillis(100));
        Scraper scraper = Scraper.start(settings, server(""), NanoClock.system());
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (preemptions.get() < 5 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        ScrapeLog log = scraper.finish();

        assertThat(log.scrapes()).isGreaterThanOrEqualTo(5);
        int after = preemptions.get();
        Thread.sleep(300);
        assertThat(preemptions.get()).as("no scrape after finish()").isEqualTo(after);
    }

    @Test
    void should_report_failed_scrapes_with_their_reason_and_go_on() {
        ScrapeSettings settings = ScrapeSettings.DEFAULT
                .withServerMetrics(false)
                .withInterval(Duration.ofMillis(300))
                .withExtraEndpoints(
                        List.of(URI.create(base() + "/broken/metrics"), URI.create(base() + "/slow/metrics")));
        settings = new ScrapeSettings(false, settings.extraEndpoints(), Duration.ofMillis(300), Duration.ofMillis(200));
        ScrapeLog log = Scraper.start(settings, server(""), NanoClock.system()).finish();

        assertThat(log.scrapes()).isZero();
        assertThat(log.failedScrapes()).isGreaterThanOrEqualTo(4);
        assertThat(log.failureReasons())
                .containsExactly(
                        base() + "/broken/metrics: HTTP 500", base() + "/slow/metrics: no answer within 200 ms");
    }

    @Test
    void should_give_up_on_a_body_that_never_ends_within_the_timeout() {
        ScrapeSettings settings = new ScrapeSettings(true, List.of(), Duration.ofMillis(300), Duration.ofMillis(300));
        long started = System.nanoTime();
        ScrapeLog log =
                Scraper.start(settings, server("/stalled"), NanoClock.system()).finish();

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(4));
        assertThat(log.scrapes()).isZero();
        assertThat(log.failureReasons()).containsExactly(base() + "/stalled/metrics: no answer within 300 ms");
    }

    @Test
    void should_note_a_server_without_metrics_once_and_stop_asking() {
        ScrapeSettings settings = ScrapeSettings.DEFAULT.withInterval(Duration.ofMillis(100));
        Scraper scraper = Scraper.start(settings, server("/none"), NanoClock.system());
        ScrapeLog log = scraper.finish();

        assertThat(log.failedScrapes()).isZero();
        assertThat(log.notes())
                .singleElement()
                .asString()
                .contains("has no Prometheus metrics")
                .contains("HTTP 404");
        assertThat(authorizations.get("/none/metrics")).hasSize(1);
    }

    @Test
    void should_count_a_server_still_loading_as_failed_scrapes_and_keep_asking_until_it_answers()
            throws InterruptedException {
        ScrapeSettings settings = new ScrapeSettings(true, List.of(), Duration.ofSeconds(1), Duration.ofSeconds(1));
        Scraper scraper = Scraper.start(settings, server("/loading"), NanoClock.system());
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (loadingAnswers.get() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        ScrapeLog log = scraper.finish();

        assertThat(log.notes())
                .as("a 503 does not mean the server has no metrics")
                .isEmpty();
        assertThat(log.failedScrapes()).isEqualTo(2);
        assertThat(log.failureReasons()).containsExactly(base() + "/loading/metrics: HTTP 503");
        assertThat(log.scrapes()).isGreaterThanOrEqualTo(2);
    }

    @Test
    void should_do_nothing_when_off() {
        ScrapeLog log = Scraper.start(ScrapeSettings.OFF, server(""), NanoClock.system())
                .finish();

        assertThat(log.endpoints()).isEmpty();
        assertThat(preemptions.get()).isZero();
    }
}
