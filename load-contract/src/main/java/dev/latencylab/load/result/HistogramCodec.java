package dev.latencylab.load.result;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;

import org.HdrHistogram.Histogram;

/** A response-time histogram as the result file stores it (compressed, Base64) and the percentiles read from one. */
public final class HistogramCodec {

    private HistogramCodec() {
    }

    public static Result.ResponseTimes percentiles(Histogram h) {
        boolean none = h.getTotalCount() == 0;
        return new Result.ResponseTimes(h.getTotalCount(), none ? null : h.getValueAtPercentile(50),
                none ? null : h.getValueAtPercentile(75), none ? null : h.getValueAtPercentile(95),
                none ? null : h.getValueAtPercentile(99), none ? null : h.getValueAtPercentile(99.9),
                none ? null : h.getMaxValue(), none ? null : h.getMean());
    }

    /** A histogram as the result file stores it. */
    public static Result.EncodedHistogram encoded(Histogram h) {
        return new Result.EncodedHistogram(ResultCheck.UNIT, ResultCheck.ENCODING, encode(h));
    }

    public static String encode(Histogram h) {
        ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int length = h.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
    }

    public static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        }
        catch (java.util.zip.DataFormatException e) {
            throw new IllegalArgumentException("not an encoded HdrHistogram", e);
        }
    }
}
