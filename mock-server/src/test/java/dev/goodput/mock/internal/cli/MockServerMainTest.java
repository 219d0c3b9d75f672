package dev.goodput.mock.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.goodput.mock.Fault;
import dev.goodput.mock.MockServer;
import dev.goodput.mock.MockServerConfig;
import dev.goodput.mock.PerformanceModel;
import dev.goodput.mock.SimulatedMetrics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("The command line starts the server, explains itself and refuses bad options with exit code 2")
class MockServerMainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return MockServerMain.run(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                MockServer::close);
    }

    @Test
    @DisplayName("--help lists every option and the preset names, and exits 0")
    void help_lists_every_option() {
        assertThat(run("--help")).isZero();

        String usage = out.toString(StandardCharsets.UTF_8);
        for (Option option : Option.ALL) {
            assertThat(usage).contains("--" + option.name);
        }
        for (Fault fault : Fault.values()) {
            if (fault != Fault.NONE) {
                assertThat(usage).contains("--fault-" + fault.cliName());
            }
        }
        assertThat(usage).contains(PerformanceModel.presetNames());
    }

    @ParameterizedTest(name = "{0} is refused: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "--bogus | unknown option --bogus",
                "--port | --port needs a value",
                "--port=abc | --port must be a number, got 'abc'",
                "--port=70000 | port must be in 0..65535",
                "--fault-http-500=2 | http-500 must be in 0..1, was 2.0",
                "--preset=nope | nope",
                "stray | unexpected argument 'stray'",
                "--enable-prefix-caching=yes | takes no value",
            })
    void bad_options_exit_with_2(String arg, String message) {
        assertThat(run(arg)).isEqualTo(2);

        assertThat(err.toString(StandardCharsets.UTF_8)).contains(message).contains("--help");
    }

    @Test
    @DisplayName("options map onto the server configuration")
    void options_map_onto_the_configuration() throws Exception {
        MockServerConfig config = CliOptions.parse(new String[] {
            "--port",
            "0",
            "--model=my/model",
            "--fixed-ttft-ms",
            "20",
            "--fixed-tpot-ms=5",
            "--max-model-len",
            "1024",
            "--seed",
            "9",
            "--fault-http-500",
            "0.25",
            "--fault-drop=0.5",
            "--fault-stall-ms",
            "100",
            "--fault-retry-after",
            "3",
            "--fault-close-after-stream",
            "--ground-truth-capacity",
            "5"
        });

        assertThat(config.port()).isZero();
        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.modelName()).isEqualTo("my/model");
        assertThat(config.performanceModel().mode()).isEqualTo(PerformanceModel.Mode.FIXED);
        assertThat(config.performanceModel().maxModelLen()).isEqualTo(1024);
        assertThat(config.seed()).isEqualTo(9);
        assertThat(config.faults().rate(Fault.HTTP_500)).isEqualTo(0.25);
        assertThat(config.faults().rate(Fault.DROPPED_CONNECTION)).isEqualTo(0.5);
        assertThat(config.faults().seed()).isEqualTo(9);
        assertThat(config.faults().stallDuration()).isEqualTo(Duration.ofMillis(100));
        assertThat(config.faults().retryAfter()).hasValue(Duration.ofSeconds(3));
        assertThat(config.faults().closeAfterStreams()).isTrue();
        assertThat(config.groundTruthCapacity()).isEqualTo(5);
    }

    @Test
    @DisplayName("--gpu-idle-watts, --gpu-busy-watts and --deprecated-metric-names set what /metrics adds")
    void metrics_options_map_onto_the_simulated_metrics() throws Exception {
        assertThat(CliOptions.parse(new String[] {
                            "--gpu-idle-watts", "50", "--gpu-busy-watts=700", "--deprecated-metric-names"
                        })
                        .simulatedMetrics())
                .isEqualTo(new SimulatedMetrics(50, 700, true));
        assertThat(CliOptions.parse(new String[] {"--gpu-busy-watts", "400"}).simulatedMetrics())
                .isEqualTo(new SimulatedMetrics(70, 400, false));
        assertThatThrownBy(() -> CliOptions.parse(new String[] {"--gpu-idle-watts", "500"}))
                .hasMessage("gpuBusyWatts must be finite and at least gpuIdleWatts (500.0), was 350.0");
        assertThatThrownBy(() -> CliOptions.parse(new String[] {"--gpu-idle-watts", "lots"}))
                .hasMessage("--gpu-idle-watts must be a number, got 'lots'");
    }

    @Test
    @DisplayName("--preset single-slot or fixed takes custom times from --fixed-ttft-ms and --fixed-tpot-ms")
    void single_slot_and_fixed_presets_take_custom_times() throws Exception {
        PerformanceModel slot = CliOptions.parse(
                        new String[] {"--preset", "single-slot", "--fixed-ttft-ms", "30", "--fixed-tpot-ms=5"})
                .performanceModel();
        assertThat(slot).isEqualTo(PerformanceModel.singleSlot(Duration.ofMillis(30), Duration.ofMillis(5)));
        assertThat(slot.maxNumSeqs()).isEqualTo(1);

        PerformanceModel slotTpotOnly = CliOptions.parse(
                        new String[] {"--preset=single-slot", "--fixed-tpot-ms", "2.5"})
                .performanceModel();
        assertThat(slotTpotOnly)
                .as("an unset time keeps the preset's")
                .isEqualTo(PerformanceModel.singleSlot(Duration.ofMillis(100), Duration.ofNanos(2_500_000)));

        PerformanceModel fixed = CliOptions.parse(new String[] {"--preset", "fixed", "--fixed-ttft-ms", "7"})
                .performanceModel();
        assertThat(fixed).isEqualTo(PerformanceModel.fixed(Duration.ofMillis(7), Duration.ofMillis(10)));

        PerformanceModel timesAlone =
                CliOptions.parse(new String[] {"--fixed-ttft-ms", "7"}).performanceModel();
        assertThat(timesAlone).isEqualTo(PerformanceModel.fixed(Duration.ofMillis(7), Duration.ZERO));
    }

    @Test
    @DisplayName("a hardware preset refuses custom times: they follow from its hardware")
    void hardware_presets_refuse_custom_times() {
        assertThat(run("--preset", "h100-llama3-8b", "--fixed-ttft-ms", "7")).isEqualTo(2);

        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("--fixed-ttft-ms and --fixed-tpot-ms set the times of --preset fixed or --preset single-slot;"
                        + " the times of h100-llama3-8b follow from its hardware");
    }

    @Test
    @DisplayName("--stream-interval groups tokens per chunk at the same rate; --tokens-per-chunk decodes faster")
    void stream_interval_and_tokens_per_chunk_are_different_things() throws Exception {
        MockServerConfig grouped = CliOptions.parse(new String[] {"--stream-interval", "4"});
        assertThat(grouped.performanceModel().streamInterval()).isEqualTo(4);
        assertThat(grouped.performanceModel().tokensPerChunk()).isEqualTo(1);

        MockServerConfig speculative = CliOptions.parse(new String[] {"--tokens-per-chunk", "3"});
        assertThat(speculative.performanceModel().tokensPerChunk()).isEqualTo(3);
        assertThat(speculative.performanceModel().streamInterval()).isEqualTo(1);
    }

    @Test
    @DisplayName("a good command line starts a server that answers /health")
    void starts_a_server() throws Exception {
        AtomicReference<Integer> health = new AtomicReference<>();
        int code = MockServerMain.run(
                new String[] {"--port", "0", "--fixed-ttft-ms", "1", "--fixed-tpot-ms", "1"},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                server -> {
                    try (server) {
                        health.set(HttpClient.newHttpClient()
                                .send(
                                        HttpRequest.newBuilder(URI.create(server.baseUrl() + "/health"))
                                                .build(),
                                        HttpResponse.BodyHandlers.discarding())
                                .statusCode());
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });

        assertThat(code).isZero();
        assertThat(health.get()).isEqualTo(200);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("listening on http://127.0.0.1:");
    }
}
