/**
 * How a figure is printed (Figures): one formatter for the console, the pages and the tables alike; and how a
 * command's gates are written for a CI to read as tests (JUnitXml).
 * <p>
 * Figures, JUnitXml.
 */
package dev.latencylab.lab.format;
