package dev.goodput.core.run.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SpinBudgetTest {

    private static final long MS = 1_000_000;

    @Test
    void should_allow_spins_until_a_second_has_used_its_budget() {
        SpinBudget budget = new SpinBudget(0);
        long spins = 0;
        for (long now = 0; budget.maySpin(now); now += MS) {
            budget.spent(100_000); // 0.1 ms, as at 200 arrivals a second
            spins++;
        }
        assertThat(spins * 100_000).isEqualTo(SpinBudget.BUDGET_NANOS);
    }

    @Test
    void should_give_a_new_budget_each_second() {
        SpinBudget budget = new SpinBudget(0);
        budget.spent(SpinBudget.BUDGET_NANOS);
        assertThat(budget.maySpin(SpinBudget.WINDOW_NANOS - 1)).isFalse();
        assertThat(budget.maySpin(SpinBudget.WINDOW_NANOS)).isTrue();
        budget.spent(SpinBudget.BUDGET_NANOS - 1);
        assertThat(budget.maySpin(2 * SpinBudget.WINDOW_NANOS - 1)).isTrue();
    }
}
