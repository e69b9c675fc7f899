/**
 * Sweeps: the plan of points (targets by users, repeated), each point's runs and their point.json, resumed by name.
 */
package dev.latencylab.lab.sweep;
