/**
 * A simulated OpenAI-compatible server that behaves like vLLM under load, for performance tests without a GPU.
 */
package dev.goodput.mock;
