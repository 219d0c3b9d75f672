package dev.goodput.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("MockServerConfig has safe defaults and names the field and value it refuses")
class MockServerConfigTest {

    @Test
    @DisplayName("the defaults listen on loopback, on a free port, without faults")
    void defaults_are_loopback_and_free_port() {
        MockServerConfig config = MockServerConfig.defaults();

        assertThat(config.host()).isEqualTo("127.0.0.1");
        assertThat(config.port()).isZero();
        assertThat(config.modelName()).isEqualTo(MockServerConfig.DEFAULT_MODEL_NAME);
        assertThat(config.faults().isEnabled()).isFalse();
        assertThat(config.performanceModel()).isNotNull();
        assertThat(config.simulatedMetrics()).isEqualTo(new SimulatedMetrics(70, 350, false));
    }

    @Test
    @DisplayName("withX returns a changed copy and leaves the original alone")
    void with_methods_copy() {
        MockServerConfig original = MockServerConfig.defaults();
        MockServerConfig changed = original.withPort(8123).withModelName("x/y").withSeed(5);

        assertThat(changed.port()).isEqualTo(8123);
        assertThat(changed.modelName()).isEqualTo("x/y");
        assertThat(changed.seed()).isEqualTo(5);
        assertThat(original.port()).isZero();
    }

    @Test
    @DisplayName("bad values throw IllegalArgumentException naming the field and the value")
    void bad_values_are_refused() {
        MockServerConfig config = MockServerConfig.defaults();

        assertThatThrownBy(() -> config.withPort(-1))
                .hasMessageContaining("port")
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> config.withPort(65536)).hasMessageContaining("65536");
        assertThatThrownBy(() -> config.withHost(" ")).hasMessageContaining("host");
        assertThatThrownBy(() -> config.withModelName("")).hasMessageContaining("modelName");
        assertThatThrownBy(() -> config.withMaxConnections(0))
                .hasMessageContaining("maxConnections")
                .hasMessageContaining("0");
        assertThatThrownBy(() -> config.withGroundTruthCapacity(0)).hasMessageContaining("groundTruthCapacity");
        assertThatThrownBy(() -> config.withWriterThreads(65)).hasMessageContaining("writerThreads");
        assertThatThrownBy(() -> Faults.none().withStallDuration(Duration.ZERO)).hasMessageContaining("stallDuration");
        assertThatThrownBy(() -> SimulatedMetrics.defaults().withGpuWatts(-1, 350))
                .hasMessage("gpuIdleWatts must be a finite number >= 0, was -1.0");
        assertThatThrownBy(() -> SimulatedMetrics.defaults().withGpuWatts(100, 90))
                .hasMessage("gpuBusyWatts must be finite and at least gpuIdleWatts (100.0), was 90.0");
        assertThatThrownBy(() -> SimulatedMetrics.defaults().withGpuWatts(Double.NaN, 350))
                .hasMessageContaining("gpuIdleWatts");
        assertThatThrownBy(() -> config.withSimulatedMetrics(null)).hasMessageContaining("simulatedMetrics");
    }

    @Test
    @DisplayName("a started server reports its base URL, port and model name")
    void server_reports_where_it_listens() {
        try (MockServer server = MockServer.start(MockServerConfig.defaults()
                .withModelName("a/b")
                .withPerformanceModel(PerformanceModel.fixed(Duration.ofMillis(1), Duration.ofMillis(1))))) {
            assertThat(server.port()).isPositive();
            assertThat(server.baseUrl()).isEqualTo("http://127.0.0.1:" + server.port());
            assertThat(server.modelName()).isEqualTo("a/b");
            assertThat(server.groundTruth()).isEmpty();
        }
    }
}
