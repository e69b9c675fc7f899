/**
 * Target ids (mvc-t200, webflux-db-p10, ...): what each starts, with which properties, and what bounds it in the model.
 * Named targets, not target: build tools and ignore files take a folder named target for build output.
 */
package dev.latencylab.lab.targets;
