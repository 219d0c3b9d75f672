package dev.goodput.core.workload;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * What to send: the request for each position of a load schedule.
 *
 * <p>A workload is a pure function of the position, so the same seed gives the same requests whatever the
 * load profile and timing. Implementations must be safe to call from several threads.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public interface WorkloadSpec {

    /** Returns the request at the given position of the schedule, starting at 0. */
    RequestSpec request(long index);

    /** Describes this workload for the run's recorded configuration (name, seed, lengths, ...). */
    Map<String, Object> describe();

    /** Starts a synthetic workload: fixed prompt and output lengths, prompts from a seeded word list. */
    static SyntheticWorkload.Builder synthetic() {
        return SyntheticWorkload.builder();
    }
}
