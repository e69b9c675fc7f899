package dev.latencylab.lab.layout;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import javax.imageio.ImageIO;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import tools.jackson.databind.ObjectMapper;

/**
 * Every file the lab writes (records, tables, pages, charts), whole or not at all: written beside under a hidden
 * temporary name, then renamed over the file once complete. A command stopped mid-write (a signal, a full disk)
 * leaves the previous file or none, never a cut one.
 */
public final class OutputFile {

    static {
        // ImageIO's disk cache registers its temporary files for deletion at exit, which a signal makes impossible
        // ("Shutdown in progress") and leaves them behind; charts are small enough to encode in memory
        ImageIO.setUseCache(false);
    }

    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    private OutputFile() {
    }

    public static void write(Path file, Content content) {
        Path dir = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(dir);
            Path partial = dir.resolve("." + file.getFileName() + "." + ProcessHandle.current().pid() + ".partial");
            try {
                try (OutputStream out = Files.newOutputStream(partial)) {
                    content.writeTo(out);
                }
                Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
            finally {
                Files.deleteIfExists(partial);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /**
     * A file a command writes where the user names it (compare --out): a new regular file of this suffix, or this
     * command's own earlier one (it starts as ownStart says); never an input, a device, a folder or any other file.
     */
    public static Path ownFile(String option, Path file, String suffix, String ownStart) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString();
        if (!name.endsWith(suffix) || name.length() == suffix.length()) {
            throw new IllegalArgumentException("%s '%s': give a file name ending in %s".formatted(option, file, suffix));
        }
        if (Files.exists(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            boolean own = false;
            if (Files.isRegularFile(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                try (java.io.InputStream in = Files.newInputStream(file)) {
                    own = new String(in.readNBytes(ownStart.length() * 4), java.nio.charset.StandardCharsets.UTF_8).startsWith(ownStart);
                }
                catch (IOException e) {
                    own = false;
                }
            }
            if (!own) {
                throw new IllegalArgumentException("%s %s exists and is not a page this command wrote: it is not replaced; give a new file"
                        .formatted(option, file));
            }
        }
        return file;
    }

    public static void text(Path file, String text) {
        write(file, out -> out.write(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    public static void json(Path file, ObjectMapper mapper, Object value) {
        write(file, out -> mapper.writeValue(out, value));
    }

    public static void png(Path file, XYChart chart) {
        requireFonts(file);
        write(file, out -> BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG));
    }

    public static void svg(Path file, XYChart chart) {
        requireFonts(file);
        write(file, out -> VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG));
    }

    /**
     * A chart's text is drawn with the system's fonts, which Java finds through fontconfig. Without them it throws from
     * deep inside Java2D ("Fontconfig head is null": a JDK image without fontconfig); the chart's file names what to do.
     */
    private static void requireFonts(Path file) {
        Throwable cause = null;
        try {
            if (java.awt.GraphicsEnvironment.getLocalGraphicsEnvironment().getAvailableFontFamilyNames().length > 0) {
                return;
            }
        }
        catch (RuntimeException | LinkageError | InternalError e) {
            cause = e;
        }
        throw new UncheckedIOException("cannot draw " + file, new IOException("Java finds no font here" + (cause == null ? "" : " (" + cause.getMessage() + ")")
                + "; install fontconfig and a font (Debian, Ubuntu: apt-get install fontconfig fonts-dejavu-core), as the official Temurin images have",
                cause));
    }
}
