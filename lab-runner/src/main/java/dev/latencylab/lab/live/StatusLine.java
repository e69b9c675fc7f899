package dev.latencylab.lab.live;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * A terminal's last line kept for a status that is rewritten in place (carriage return, then erase the line), and the
 * console's writers made to wipe it before they print: every other line comes out whole, and the status is drawn again
 * at the next second. Only on a terminal (./lab tells the JVM so): in a pipe or a CI log the console prints plain lines,
 * without a control character.
 */
public final class StatusLine {

    /** Carriage return, then ANSI's erase-in-line (to its end). */
    private static final String WIPE = "\r\033[K";

    private final Writer terminal;
    private final int columns;
    private boolean shown;

    private StatusLine(Writer terminal, int columns) {
        this.terminal = terminal;
        this.columns = columns;
    }

    /**
     * The status line of this terminal, when ./lab runs on one (latency-lab.terminal, with its width in
     * latency-lab.columns); null otherwise.
     */
    public static StatusLine ofTerminal(Writer terminal) {
        if (!Boolean.getBoolean("latency-lab.terminal")) {
            return null;
        }
        return new StatusLine(terminal, Math.max(20, Integer.getInteger("latency-lab.columns", 80)));
    }

    /** The status now: one line, cut to the terminal's width (a line that wrapped could not be rewritten in place). */
    public synchronized void show(String status) {
        String line = status.length() < columns ? status : status.substring(0, columns - 2) + "…";
        write(WIPE + line);
        shown = true;
    }

    /** No status: the line is wiped (when the work ends, so that the last lines are the work's own). */
    public synchronized void clear() {
        if (shown) {
            write(WIPE);
            shown = false;
        }
    }

    private void write(String text) {
        try {
            terminal.write(text);
            terminal.flush();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A writer to this terminal (its standard output or error) that wipes the status before it prints. */
    public Writer wiping(Writer to) {
        return new Writer() {
            @Override
            public void write(char[] chars, int from, int length) throws IOException {
                synchronized (StatusLine.this) {
                    clear();
                    to.write(chars, from, length);
                }
            }

            @Override
            public void flush() throws IOException {
                to.flush();
            }

            @Override
            public void close() throws IOException {
                to.close();
            }
        };
    }
}
