/**
 * A user's own Gatling simulation run by the lab (./lab run --simulation): OwnRun runs it on the lab's Gatling with the
 * lab's preflight and sampling, and builds the result file from Gatling's own records of the run (GatlingRecords).
 */
package dev.latencylab.load.own;
