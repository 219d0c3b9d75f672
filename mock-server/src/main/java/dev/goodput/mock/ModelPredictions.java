package dev.goodput.mock;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.mock.internal.engine.SaturationProbe;
import dev.goodput.mock.internal.engine.StepCost;
import org.apiguardian.api.API;

/**
 * What a {@link PerformanceModel} predicts: how long its steps take, how many requests it runs at once (its knee)
 * and how many it completes per second when saturated. These are the same functions the simulated engine charges,
 * so a test can compute where the server will put its knee and its saturation point before it sends a request.
 *
 * <pre>{@code
 * double saturation = ModelPredictions.of(PerformanceModel.preset("tiny-test")).maxRequestsPerSecond(64, 64);
 * }</pre>
 *
 * <p>Kept apart from the model, which only describes: the predictions run the engine, and the engine reads the
 * model, so the model itself must not call the engine.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ModelPredictions {

    private final PerformanceModel model;

    private ModelPredictions(PerformanceModel model) {
        this.model = model;
    }

    /** Returns the predictions of {@code model}. */
    public static ModelPredictions of(PerformanceModel model) {
        if (model == null) {
            throw new NullPointerException("model");
        }
        return new ModelPredictions(model);
    }

    /**
     * Returns the duration of a step in which {@code batchSize} sequences each decode one token (one chunk),
     * reading {@code totalContextTokens} tokens of KV cache between them.
     */
    public long decodeStepNanos(int batchSize, long totalContextTokens) {
        return StepCost.stepNanos(model, batchSize, totalContextTokens, 0, 0, 0);
    }

    /** Returns the duration of a step that prefills one fresh prompt of {@code tokens} tokens and nothing else. */
    public long prefillNanos(int tokens) {
        return StepCost.stepNanos(model, 0, 0, tokens, tokens, StepCost.attentionPairs(0, tokens));
    }

    /**
     * Returns the duration of a step holding {@code decodeSequences} decodes over {@code decodeContextTokens} of
     * context and one prefill chunk of {@code prefillTokens} new tokens after {@code prefillOffsetTokens} tokens
     * already in the cache. This is the roofline {@code max(bytes / (BW * MBU), flops / (F * MFU)) + overhead}
     * with bytes = weights + KV read and flops = 2 * parameters * tokens + attention; a model with constant costs
     * charges its TTFT for a step with prefill work and its TPOT for a pure decode step.
     */
    public long stepNanos(int decodeSequences, long decodeContextTokens, int prefillTokens, long prefillOffsetTokens) {
        return StepCost.stepNanos(
                model,
                decodeSequences,
                decodeContextTokens,
                prefillTokens,
                prefillTokens == 0 ? 0 : prefillOffsetTokens + prefillTokens,
                StepCost.attentionPairs(prefillOffsetTokens, prefillTokens));
    }

    /**
     * Returns how many requests of this shape the engine runs at once: its batch slots or its KV cache (each
     * sequence eventually holds {@code promptTokens + outputTokens} tokens of it), whichever runs out first. Beyond
     * this concurrency, more load only queues: this is the model's knee. {@link Integer#MAX_VALUE} in fixed mode.
     *
     * @throws IllegalArgumentException if the shape exceeds the model's context, which the server refuses
     */
    public int maxConcurrentSequences(int promptTokens, int outputTokens) {
        return SaturationProbe.maxConcurrentSequences(model, promptTokens, outputTokens);
    }

    /**
     * Returns the most requests per second of this shape the engine completes when saturated (without jitter and
     * without prefix sharing); an open-loop arrival rate above it makes the waiting queue and TTFT grow without
     * bound. Computed by running the engine's own scheduler on virtual time over a backlog of such requests, so it
     * takes a moment for large models (well under a second for the presets). Infinite in fixed mode.
     *
     * @throws IllegalArgumentException if the shape exceeds the model's context, which the server refuses
     */
    public double maxRequestsPerSecond(int promptTokens, int outputTokens) {
        return SaturationProbe.requestsPerSecond(model, promptTokens, outputTokens);
    }

    /** Returns the model these predictions are of. */
    public PerformanceModel model() {
        return model;
    }

    @Override
    public String toString() {
        return "ModelPredictions[" + model.name() + "]";
    }
}
