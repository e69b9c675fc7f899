/**
 * Capacity under open arrival: the ladders of rates a search climbs, what its levels say, and the search's data
 * (capacity.json, levels.csv; its chart and table: page).
 * <p>
 * SearchRun (a search under way), SearchRepeats (searches one after the other, each in its folder), CapacitySearch
 * (ladders, their default rates, outcome), Capacity (capacity.json, levels.csv).
 */
package dev.latencylab.lab.capacity;
