package dev.goodput.core.ab.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.goodput.core.ab.Arm;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BlockOrderTest {

    private static String order(long seed, int pairs) {
        StringBuilder order = new StringBuilder();
        for (int pair = 0; pair < pairs; pair++) {
            for (Arm arm : new BlockOrder(seed).pair(pair)) {
                order.append(arm.letter());
            }
        }
        return order.toString();
    }

    @Test
    void every_four_blocks_are_abba_or_baab_so_each_arm_goes_first_once_in_two_pairs() {
        for (long seed = 0; seed < 50; seed++) {
            String order = order(seed, 32);
            for (int four = 0; four < order.length(); four += 4) {
                assertThat(order.substring(four, four + 4)).isIn("ABBA", "BAAB");
            }
        }
    }

    @Test
    void the_same_seed_gives_the_same_order_and_seeds_give_both_kinds_of_four() {
        assertThat(order(3, 16)).isEqualTo(order(3, 16));
        List<String> firstFours = new ArrayList<>();
        for (long seed = 0; seed < 40; seed++) {
            firstFours.add(order(seed, 2));
        }
        assertThat(Set.copyOf(firstFours)).containsExactlyInAnyOrder("ABBA", "BAAB");
    }
}
