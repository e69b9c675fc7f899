/** Merging the result files of a run split over several injectors into one, with the checks that they belong together. */
package dev.latencylab.load.merge;
