package dev.latencylab.lab.page;

import java.util.ArrayList;
import java.util.List;

/**
 * A part of a line of generated words, marked strong or not: a verdict is written once, in Markdown (**a target**),
 * and a template marks each part up, so that the engine escapes every part.
 */
record Strong(String text, boolean strong) {

    /** A Markdown line's parts: between each pair of ** strong, the rest not. */
    static List<Strong> parts(String markdown) {
        List<Strong> parts = new ArrayList<>();
        String[] split = markdown.split("\\*\\*", -1);
        for (int i = 0; i < split.length; i++) {
            if (!split[i].isEmpty()) {
                parts.add(new Strong(split[i], i % 2 == 1));
            }
        }
        return parts;
    }
}
