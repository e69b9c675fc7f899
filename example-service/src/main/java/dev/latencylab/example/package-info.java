/**
 * A small service of a user's to point the lab at (./lab run --url ... --jar ...): not one of the lab's targets, it
 * knows nothing of the lab.
 */
package dev.latencylab.example;
