package dev.goodput.testcontainers;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.testcontainers.DockerClientFactory;

/** Enables {@link EnabledIfContainerEngine} tests when Testcontainers finds an engine; it asks once per JVM. */
final class ContainerEngineCondition implements ExecutionCondition {

    static final String NO_ENGINE = "no container engine is reachable (Testcontainers found neither Docker nor"
            + " DOCKER_HOST); start Docker, or Podman's socket with DOCKER_HOST=unix:///run/podman/podman.sock,"
            + " to run this test";

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return isEngineAvailable()
                ? ConditionEvaluationResult.enabled("a container engine is reachable")
                : ConditionEvaluationResult.disabled(NO_ENGINE);
    }

    private static boolean isEngineAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
