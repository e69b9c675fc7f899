/**
 * Capacity under open arrival: the ladders of rates a search climbs, what its levels say, and the search's data
 * (capacity.json, levels.csv; its chart and table: page).
 */
package dev.latencylab.lab.capacity;
