/** The simulation (LoadSimulation, Scala) and the build-time training of Gatling's AOT cache (GatlingTraining). */
package dev.latencylab.load;
