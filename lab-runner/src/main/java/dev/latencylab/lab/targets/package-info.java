/**
 * Target ids (mvc-t200, webflux-db-p10, ...): what each starts, with which properties, and what bounds it in the
 * model. Named targets, not target: build tools and ignore files take a folder named target for build output.
 * <p>
 * Target (what each id starts, with which properties, what bounds it in the model), DependencyTargets (the ids that
 * wait on PostgreSQL or a downstream: their pools, -pg, -jdbc425, -h2c), TargetIds (the forms of id a user writes,
 * for --help and the docs).
 */
package dev.latencylab.lab.targets;
