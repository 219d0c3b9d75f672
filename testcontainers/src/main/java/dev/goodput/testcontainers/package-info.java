/**
 * The server under test in a container: {@link dev.goodput.testcontainers.VllmContainer} for a real vLLM on a GPU
 * runner, {@link dev.goodput.testcontainers.LlamaCppContainer} for a real llama.cpp on a CPU runner, {@link
 * dev.goodput.testcontainers.GoodputMockServerContainer} for Goodput's simulated server on any runner with a
 * container engine, and {@link dev.goodput.testcontainers.EnabledIfContainerEngine} to skip such tests where
 * there is none. Put any of these containers in a {@code @ServerUnderTest} field and the JUnit extension
 * starts it once per class and stops it at the end.
 */
package dev.goodput.testcontainers;
