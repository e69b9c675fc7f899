/**
 * How a figure is printed (Figures): one formatter for the console, the pages and the tables alike.
 * <p>
 * Figures.
 */
package dev.latencylab.lab.format;
