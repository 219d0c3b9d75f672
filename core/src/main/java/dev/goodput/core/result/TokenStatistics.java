package dev.goodput.core.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.goodput.core.record.TokenCountSource;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Token counts of the successful measured requests and where they came from.
 *
 * @param inputTokens total input tokens (server counts where sent, else the client's)
 * @param outputTokens total output tokens
 * @param outputTokenSources how many requests took their output count from each source
 * @param prompt the server's prompt counts against the client's
 * @param output the server's output counts against a client tokenizer's (none compared without one)
 * @param finishReasons how many requests ended with each finish reason ({@code "none"} when none was sent)
 * @param ignoreEosRequests requests sent with {@code ignore_eos: true}, or -1 when not tracked
 * @param shorterThanAsked of those, how many produced fewer output tokens than {@code max_tokens} asked for
 *     (a server that does not honour {@code ignore_eos}, or a stop it could not skip), or -1 when not tracked
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record TokenStatistics(
        long inputTokens,
        long outputTokens,
        Map<TokenCountSource, Long> outputTokenSources,
        TokenComparison prompt,
        TokenComparison output,
        Map<String, Long> finishReasons,
        long ignoreEosRequests,
        long shorterThanAsked) {

    public TokenStatistics {
        outputTokenSources = Map.copyOf(outputTokenSources);
        finishReasons = Map.copyOf(finishReasons);
    }
}
