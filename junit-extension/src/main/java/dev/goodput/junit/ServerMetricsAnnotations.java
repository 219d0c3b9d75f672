package dev.goodput.junit;

import dev.goodput.core.InvalidSettingException;
import dev.goodput.core.servermetrics.Deployment;
import dev.goodput.core.servermetrics.ScrapeSettings;
import java.lang.reflect.Method;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

/**
 * Turns {@link ServerMetrics}, {@link GpuDeployment} and the {@code goodput.server-metrics*} configuration
 * parameters into core values, refusing bad ones with the annotation, the attribute and the value.
 */
final class ServerMetricsAnnotations {

    private ServerMetricsAnnotations() {}

    static ScrapeSettings scrape(Class<?> testClass, Method method, String where, GoodputConfiguration configuration) {
        if (!configuration.serverMetrics()) {
            return ScrapeSettings.OFF;
        }
        ServerMetrics annotation =
                GateDefinition.nearest(testClass, method, ServerMetrics.class).orElse(null);
        ScrapeSettings settings = ScrapeSettings.DEFAULT;
        List<URI> endpoints = new ArrayList<>();
        if (annotation != null) {
            settings = new AnnotationSettings("@ServerMetrics", where)
                    .map("serverMetrics.interval", "intervalMs", annotation.intervalMs())
                    .apply(() -> ScrapeSettings.DEFAULT
                            .withServerMetrics(annotation.scrapeServer())
                            .withInterval(Duration.ofMillis(annotation.intervalMs())));
            for (String endpoint : annotation.endpoints()) {
                endpoints.add(endpoint(
                        endpoint,
                        new AnnotationSettings("@ServerMetrics", where)
                                .map("serverMetrics.endpoints", "endpoints", "\"" + endpoint + "\"")));
            }
        }
        for (String endpoint : configuration.serverMetricsEndpoints()) {
            try {
                URI uri = URI.create(endpoint);
                ScrapeSettings.DEFAULT.withExtraEndpoints(List.of(uri));
                endpoints.add(uri);
            } catch (InvalidSettingException e) {
                throw new ExtensionConfigurationException("configuration parameter "
                        + GoodputConfiguration.SERVER_METRICS_ENDPOINTS + " = '" + endpoint + "' " + e.requirement());
            } catch (IllegalArgumentException e) {
                throw new ExtensionConfigurationException("configuration parameter "
                        + GoodputConfiguration.SERVER_METRICS_ENDPOINTS + " = '" + endpoint + "' is not a URL: "
                        + e.getMessage());
            }
        }
        return settings.withExtraEndpoints(endpoints);
    }

    /** Checks one endpoint as the core does, in the words of where it was written. */
    private static URI endpoint(String text, AnnotationSettings names) {
        return names.apply(() -> {
            URI uri = URI.create(text.trim());
            ScrapeSettings.DEFAULT.withExtraEndpoints(List.of(uri));
            return uri;
        });
    }

    static Deployment deployment(Class<?> testClass, Method method, String where) {
        return GateDefinition.nearest(testClass, method, GpuDeployment.class)
                .map(annotation -> new AnnotationSettings("@GpuDeployment", where)
                        .map("gpuCount", "count", annotation.count())
                        .apply(() -> new Deployment(
                                annotation.gpu(),
                                annotation.count(),
                                annotation.pricePerGpuHour(),
                                annotation.memoryBandwidthGBps(),
                                annotation.modelParameters(),
                                annotation.bytesPerParameter())))
                .orElse(Deployment.UNSTATED);
    }
}
