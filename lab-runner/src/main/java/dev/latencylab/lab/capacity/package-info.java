/**
 * Capacity under open arrival: the ladders of rates a search climbs, what its levels say, and the search's
 * capacity.json.
 */
package dev.latencylab.lab.capacity;
