package dev.latencylab.lab.page;

import java.util.Map;

import gg.jte.ContentType;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;

/**
 * The pages' templates (src/main/jte): compiled to Java with the module by jte's Maven plugin, so that a template that
 * names a method its parameter lacks fails the build, not a page; the engine escapes every value for where it stands.
 */
final class Templates {

    private static final TemplateEngine ENGINE = TemplateEngine.createPrecompiled(null, ContentType.Html, null,
            "dev.latencylab.lab.page");

    private Templates() {
    }

    /** The page of a template (its name in src/main/jte, e.g. "compare.jte") with its parameters. */
    static String render(String template, Map<String, Object> parameters) {
        StringOutput out = new StringOutput();
        ENGINE.render(template, parameters, out);
        return out.toString();
    }
}
