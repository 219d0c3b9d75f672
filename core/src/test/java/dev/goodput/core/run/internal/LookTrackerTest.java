package dev.goodput.core.run.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LookTrackerTest {

    @Test
    void should_make_a_look_ready_only_once_every_measured_request_before_it_has_ended() {
        LookTracker tracker = new LookTracker(new long[] {3, 6});
        tracker.firstMeasured(10);

        assertThat(tracker.measuredEnded(12)).isNull();
        assertThat(tracker.measuredEnded(10)).isNull();
        assertThat(tracker.measuredEnded(13)).isNull();
        // 10, 11, 12 have all ended when 11 does, whatever 13 did before it.
        assertThat(tracker.measuredEnded(11)).isEqualTo(new LookTracker.Ready(0, 13));
    }

    @Test
    void should_skip_to_the_latest_of_looks_that_became_ready_together() {
        LookTracker tracker = new LookTracker(new long[] {2, 4, 8});
        tracker.firstMeasured(0);
        tracker.measuredEnded(1);
        tracker.measuredEnded(2);
        tracker.measuredEnded(3);

        assertThat(tracker.measuredEnded(0)).isEqualTo(new LookTracker.Ready(1, 4));
        assertThat(tracker.measuredEnded(4)).isNull();
    }
}
