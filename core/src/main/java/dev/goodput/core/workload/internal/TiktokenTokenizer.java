package dev.goodput.core.workload.internal;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import com.knuddels.jtokkit.api.IntArrayList;
import dev.goodput.core.InvalidSettingException;
import java.util.Arrays;
import java.util.Optional;

/** A tiktoken encoding through jtokkit, whose encodings are inside its jar: nothing is downloaded. */
public final class TiktokenTokenizer extends IdTokenizer {

    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

    private final Encoding encoding;

    private TiktokenTokenizer(Encoding encoding) {
        this.encoding = encoding;
    }

    /** Returns the named encoding, for example {@code cl100k_base}. */
    public static TiktokenTokenizer named(String name) {
        Optional<EncodingType> type = EncodingType.fromName(name);
        if (type.isEmpty()) {
            throw InvalidSettingException.of(
                    "tiktoken encoding",
                    "\"" + name + "\"",
                    "is not known; known are "
                            + Arrays.stream(EncodingType.values())
                                    .map(EncodingType::getName)
                                    .toList());
        }
        return new TiktokenTokenizer(REGISTRY.getEncoding(type.get()));
    }

    @Override
    public String name() {
        return "tiktoken:" + encoding.getName();
    }

    @Override
    public int count(String text) {
        return encoding.countTokensOrdinary(text);
    }

    @Override
    protected int[] encode(String text) {
        return encoding.encodeOrdinary(text).toArray();
    }

    @Override
    protected String decode(int[] ids) {
        IntArrayList list = new IntArrayList(ids.length);
        for (int id : ids) {
            list.add(id);
        }
        return encoding.decode(list);
    }
}
