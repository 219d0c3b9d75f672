package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * A workload of multi-turn sessions, which a closed loop ({@link dev.goodput.core.load.Load#concurrency(int)}) runs
 * one session per virtual user, turn after turn: a turn is sent when the previous turn's reply has arrived and
 * {@link #thinkTime()} has passed, and a new session starts after the last turn. Sessions may differ in length
 * ({@link #turnsOf(long)}), as conversations replayed from a dataset do.
 *
 * <p>{@link #request(long)} is what an open loop sends; each implementation says how it lays the sessions' turns
 * out over the positions. An instance remembers the turn of every request it built: use one instance per run.
 * {@link dev.goodput.core.result.TurnResults#split} splits a run's metrics by turn.
 */
@API(status = EXPERIMENTAL, since = "0.2")
public interface SessionWorkload extends WorkloadSpec {

    /** Returns the number of turns of session {@code session} (0-based, any value at least 0), at least 1. */
    int turnsOf(long session);

    /** Returns turn {@code turn} (0-based) of session {@code session}, to be sent as request {@code index}. */
    RequestSpec request(long index, long session, int turn);

    /** Returns the pause between a reply and the session's next turn. */
    Duration thinkTime();

    /** Returns the 1-based turn of the request at {@code index}, or 0 if this workload did not build it. */
    int turnOf(long index);
}
