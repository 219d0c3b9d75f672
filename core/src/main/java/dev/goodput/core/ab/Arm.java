package dev.goodput.core.ab;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** One side of an A/B run: the server changes are judged against, or the server being judged. */
@API(status = EXPERIMENTAL, since = "0.2")
public enum Arm {
    /** The reference, for a pull request the main branch's server; written A in a block order. */
    BASELINE("A"),
    /** The server under judgement, for a pull request the branch's server; written B in a block order. */
    CANDIDATE("B");

    private final String letter;

    Arm(String letter) {
        this.letter = letter;
    }

    /** Returns the letter a block order writes this arm with: A for the baseline, B for the candidate. */
    public String letter() {
        return letter;
    }

    /** Returns the other arm. */
    public Arm other() {
        return this == BASELINE ? CANDIDATE : BASELINE;
    }
}
