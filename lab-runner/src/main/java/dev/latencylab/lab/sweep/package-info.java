/**
 * Sweeps: the plan of points (targets by users, repeated), each point's runs, resumed by name.
 */
package dev.latencylab.lab.sweep;
