package dev.latencylab.lab.format;

import java.io.StringWriter;
import java.util.List;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * A command's gates as a CI reads tests (--junit FILE): one test suite, each objective a test case whose output says
 * what was measured against what limit, a gate breached a failure, one that cannot judge an error (never a pass).
 * Written with the JDK's XML writer, which escapes what a name or message holds.
 */
public final class JUnitXml {

    private JUnitXml() {
    }

    /** How a gate ended, as a test does. */
    public enum Outcome {
        PASSED, FAILED, CANNOT_JUDGE
    }

    /**
     * One objective judged.
     *
     * @param group   what it was judged on (a point, a pair of sides): the test's class name
     * @param name    the objective (p99:10): the test's name
     * @param outcome how it ended
     * @param said    what was measured against what limit, in the console's words
     */
    public record Case(String group, String name, Outcome outcome, String said) {
    }

    /** The suite named suite (the command), of these cases, as JUnit XML. */
    public static String of(String suite, List<Case> cases) {
        StringWriter text = new StringWriter();
        try {
            XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(text);
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeCharacters("\n");
            xml.writeStartElement("testsuite");
            xml.writeAttribute("name", suite);
            xml.writeAttribute("tests", String.valueOf(cases.size()));
            xml.writeAttribute("failures", String.valueOf(cases.stream().filter(c -> c.outcome() == Outcome.FAILED).count()));
            xml.writeAttribute("errors", String.valueOf(cases.stream().filter(c -> c.outcome() == Outcome.CANNOT_JUDGE).count()));
            xml.writeAttribute("skipped", "0");
            xml.writeAttribute("time", "0");
            for (Case c : cases) {
                xml.writeCharacters("\n  ");
                xml.writeStartElement("testcase");
                xml.writeAttribute("classname", c.group());
                xml.writeAttribute("name", c.name());
                xml.writeAttribute("time", "0");
                if (c.outcome() != Outcome.PASSED) {
                    xml.writeCharacters("\n    ");
                    xml.writeStartElement(c.outcome() == Outcome.FAILED ? "failure" : "error");
                    xml.writeAttribute("message", c.said());
                    xml.writeAttribute("type", c.outcome() == Outcome.FAILED ? "worse" : "cannot-judge");
                    xml.writeCharacters(c.said());
                    xml.writeEndElement();
                }
                xml.writeCharacters("\n    ");
                xml.writeStartElement("system-out");
                xml.writeCharacters(c.said());
                xml.writeEndElement();
                xml.writeCharacters("\n  ");
                xml.writeEndElement();
            }
            xml.writeCharacters("\n");
            xml.writeEndElement();
            xml.writeCharacters("\n");
            xml.writeEndDocument();
            xml.close();
        }
        catch (XMLStreamException e) {
            throw new IllegalStateException("cannot write the JUnit XML of " + suite + ": " + e.getMessage(), e);
        }
        return text.toString();
    }
}
