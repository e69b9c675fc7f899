package dev.latencylab.load

import scala.concurrent.duration._
import scala.jdk.OptionConverters._

import io.gatling.core.Predef._
import io.gatling.http.Predef._

/**
 * The classic experiment: users arrive evenly over a ramp; each sends GET {test.path} `sim.repeat` times with a
 * uniformly random think time between requests. Every parameter is a system property (see SimulationSettings and
 * README). Besides Gatling's HTML report, the run leaves a result.json (see ResultFile).
 */
class LoadSimulation extends Simulation {

  private val settings = LoadSimulation.orExit(SimulationSettings.fromSystemProperties())
  private val preflight = LoadSimulation.orExit(Preflight.check(settings))
  private val run = new RunRecorder
  private val sampler = new Sampler(if (settings.sampleServer) settings.metricsUrl else null, java.net.URI.create(settings.baseUrl).getPort,
    settings.targetPid.orElse(-1L), run)
  private val connectTimeoutMs = configuration.socket.connectTimeout.toMillis
  private val requestTimeoutMs = configuration.http.requestTimeout.toMillis

  LoadSimulation.announce(settings, preflight)

  private val httpProtocol = {
    val base = http.baseUrl(settings.baseUrl).acceptHeader("text/plain").disableCaching
    if (preflight.connections == SimulationSettings.ConnectionMode.SHARED) base.shareConnections else base
  }

  private val sendAndRecord =
    exec(_.set("sentAt", System.nanoTime()))
      .exec(
        http("hello-with-latency")
          .get(LoadSimulation.literal(settings.path)) // a path, never a Gatling expression
          .check(responseTimeInMillis.saveAs("responseTime"), status.saveAs("status"), status.is(200))
      )
      .exec { session =>
        val status = session("status").asOption[Int]
        val responseTime = session("responseTime").asOption[Int].map(_.toLong)
          .getOrElse((System.nanoTime() - session("sentAt").as[Long]) / 1000000L)
        val koReason =
          if (session.isFailed) KoReason.classify(status.getOrElse(-1), responseTime, connectTimeoutMs, requestTimeoutMs)
          else null
        run.record(responseTime, koReason)
        session.markAsSucceeded.removeAll("status", "responseTime", "sentAt")
      }

  private val users = scenario("users")
    .exec { session => run.userStarted(); session }
    .repeat(settings.repeat) {
      sendAndRecord.pause(settings.thinkMin.toMillis.millis, settings.thinkMax.toMillis.millis)
    }
    .exec { session => run.userFinished(); session }

  before {
    run.start()
    sampler.start()
  }

  setUp(users.inject(rampUsers(settings.users).during(settings.ramp.toSeconds.seconds)))
    .protocols(httpProtocol)
    .assertions(LoadSimulation.assertionsOf(settings): _*)

  after {
    run.finish()
    sampler.close()
    val file = settings.resultFile.toScala.getOrElse(
      ResultFile.defaultLocation(java.nio.file.Path.of("target", "gatling"), run.startedAt()))
    val result = ResultFile.build(settings, preflight, run, sampler, connectTimeoutMs, requestTimeoutMs)
    ResultFile.write(result, file)
    println(s"latency-lab: result file ${file.toAbsolutePath}")
    result.problems.forEach(p => System.err.println(s"latency-lab: PROBLEM: $p"))
  }
}

object LoadSimulation {

  /** The exit code of a run refused before any load. Not 2: gatling-maven-plugin reads 2 as "assertions failed". */
  private val Refused = 3

  /** A bad parameter or a failed preflight stops the run before any request, with the reason and nothing else. */
  private def orExit[T](check: => T): T =
    try check
    catch {
      case e @ (_: SimulationSettings.InvalidSettingsException | _: Preflight.PreflightException) =>
        System.err.println(s"\nlatency-lab: cannot run: ${e.getMessage}\n")
        System.err.flush()
        sys.exit(Refused)
    }

  private def literal(path: String): io.gatling.core.session.Expression[String] = _ => io.gatling.commons.validation.Success(path)

  private def announce(settings: SimulationSettings, preflight: Preflight): Unit = {
    println(
      s"latency-lab: ${settings.users} users over ${settings.ramp.toSeconds} s -> ${settings.baseUrl}${settings.path}, " +
        s"${settings.repeat} requests each, think ${settings.thinkMin.toMillis}-${settings.thinkMax.toMillis} ms, " +
        s"connections ${preflight.connections.id}"
    )
    if (preflight.switched) {
      System.err.println(
        s"""
           |latency-lab: WARNING: CONNECTION MODE SWITCHED TO SHARED.
           |  One connection per user would need about ${preflight.openFilesNeeded} open files; this process may open ${preflight.openFilesLimit}.
           |  All users now share one connection pool, so the server sees far fewer connections than users.
           |  The result file records connectionsSwitched=true. Set -Dsim.connections=per-user to refuse instead.
           |""".stripMargin)
    }
  }

  /** The user's assertions, and one always: a run in which no request succeeded fails. */
  private def assertionsOf(settings: SimulationSettings) =
    Seq(global.successfulRequests.count.gt(0L)) ++
    settings.assertP95Ms.stream().toArray.map(ms => global.responseTime.percentile(95).lte(ms.toInt)).toSeq ++
      settings.assertP99Ms.stream().toArray.map(ms => global.responseTime.percentile(99).lte(ms.toInt)).toSeq ++
      settings.assertKoPercent.stream().toArray.map(pct => global.failedRequests.percent.lte(pct)).toSeq
}
