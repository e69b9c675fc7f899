package dev.latencylab.load.scaladsl

import scala.concurrent.duration._
import scala.jdk.CollectionConverters._

import io.gatling.core.Predef._
import io.gatling.core.config.GatlingConfiguration
import io.gatling.core.structure.{PopulationBuilder, ScenarioBuilder}
import io.gatling.http.Predef.http
import io.gatling.http.protocol.HttpProtocolBuilder

/**
 * dev.latencylab.load.LabLoad for a simulation in Gatling's Scala DSL: the lab's load for a scenario (its users or its
 * arrival rates), the base URL it checked, and Gatling's HTTP protocol with it and without following redirects.
 */
object LabLoad {

  /** The lab's load for this scenario, whichever it gave: its users, or its arrival rates (see dev.latencylab.load.LabLoad#load). */
  def load(scenario: ScenarioBuilder): PopulationBuilder = {
    val settings = dev.latencylab.load.settings.SimulationSettings.fromSystemProperties()
    if (settings.openLoad.isEmpty) users(scenario)
    else {
      val steps = dev.latencylab.load.OpenSteps.of(settings.openLoad.get)
      dev.latencylab.load.OpenSteps.remember(steps)
      scenario.inject(steps.asScala.map(_.asScala).toSeq)
    }
  }

  /** The lab's users for this scenario: sim.users (this injector's share) arriving evenly over sim.ramp.seconds. */
  def users(scenario: ScenarioBuilder): PopulationBuilder = {
    val settings = dev.latencylab.load.settings.SimulationSettings.fromSystemProperties()
    scenario.inject(rampUsers(settings.usersHere).during(settings.pacing.ramp.toMillis.millis))
  }

  /** The service's base URL (scheme, host and port) as the lab checked it: -Dbase.url. */
  def baseUrl: String = dev.latencylab.load.LabLoad.baseUrl()

  /** Gatling's HTTP protocol as the lab's own simulation has it: the checked base URL, no redirect followed, HTTP/2 when the lab loads it so. */
  def httpProtocol(implicit configuration: GatlingConfiguration): HttpProtocolBuilder = {
    val endpoint = dev.latencylab.load.settings.SimulationSettings.fromSystemProperties().endpoint
    val protocol = http.baseUrl(endpoint.baseUrl).disableFollowRedirect
    if (endpoint.http2) protocol.enableHttp2 else protocol
  }
}
