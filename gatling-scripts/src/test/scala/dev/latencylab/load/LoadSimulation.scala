package dev.latencylab.load

import dev.latencylab.load.live.LiveFeed
import dev.latencylab.load.preflight.AgreedStart
import dev.latencylab.load.preflight.Preflight
import dev.latencylab.load.record.ArrivalRecorder
import dev.latencylab.load.record.KoReason
import dev.latencylab.load.record.RunRecorder
import dev.latencylab.load.record.RunResult
import dev.latencylab.load.result.ResultFile
import dev.latencylab.load.sample.Sampler
import dev.latencylab.load.settings.OpenLoad
import dev.latencylab.load.settings.SimulationSettings

import scala.concurrent.duration._
import scala.jdk.CollectionConverters._
import scala.jdk.OptionConverters._

import io.gatling.commons.validation.Success
import io.gatling.core.Predef._
import io.gatling.core.controller.inject.open.OpenInjectionStep
import io.gatling.http.Predef._

/**
 * The classic experiment (closed model, the default): users arrive evenly over a ramp; each sends GET {test.path}
 * `sim.repeat` times with a uniformly random think time between requests. The open model (sim.injection=open): GET
 * {test.path} arrives at sim.rate per second, each arrival one request of its own, whether the server keeps up or not;
 * several rates make a ladder. Instead of GET {test.path}: another method and a body (sim.method, sim.body.file), or a
 * file of requests sent in turn by weight (sim.requests.file), each with the sim.header.* headers (see RequestMix). Every parameter is a system property (see SimulationSettings and README). Besides
 * Gatling's HTML report, the run leaves a result.json (see ResultFile).
 */
class LoadSimulation extends Simulation {

  private val settings = LoadSimulation.orExit(SimulationSettings.fromSystemProperties())
  private val preflight = LoadSimulation.orExit(Preflight.check(settings))
  private val mix = settings.endpoint.mix
  private val run = new RunRecorder(mix.requests.size)
  private val sampler = new Sampler(if (preflight.samplesServer(settings)) settings.endpoint.metricsUrl else null, settings.endpoint.baseUrl,
    settings.watch.targetPid.orElse(-1L), settings.endpoint.path, run)
  private val connectTimeoutMs = configuration.socket.connectTimeout.toMillis
  private val requestTimeoutMs = configuration.http.requestTimeout.toMillis
  private val openSteps: Seq[OpenInjectionStep] = settings.openLoad.toScala.map(load => OpenSteps.of(load).asScala.map(_.asScala).toSeq).getOrElse(Nil)
  private val arrivals: Option[ArrivalRecorder] = settings.openLoad.toScala.map(load =>
    new ArrivalRecorder(load, OpenSteps.dueOffsetsMs(openSteps.asJava), settings.load.sloP99Ms.getAsLong, settings.load.sloKoPercent, settings.load.stopOnSloMiss))

  /** The run's seconds for ./lab's live view (sim.live), beside the result file the runner named. */
  private val live: Option[LiveFeed] = settings.resultFile.toScala.filter(_ => settings.watch.live).map(file => LiveFeed.beside(file, run))

  LoadSimulation.announce(settings, preflight)

  private val httpProtocol = {
    // */* as curl sends it: a JSON service answered the old text/plain with 406 to every request. No redirect is
    // followed: a request goes to the host the runner checked and nowhere else, and a 3xx is a KO of its own
    val base = http.baseUrl(settings.endpoint.baseUrl).acceptHeader("*/*").disableCaching.disableFollowRedirect
    val protocol = if (settings.endpoint.http2) base.enableHttp2 else base
    if (preflight.connections == SimulationSettings.ConnectionMode.SHARED) protocol.shareConnections else protocol
  }

  /** Each request of the mix as Gatling sends it, named as the result file names it: any 2xx is OK. */
  private val requests: Seq[(Any, io.gatling.core.structure.ChainBuilder)] = mix.requests.asScala.toSeq.zipWithIndex.map { case (q, i) =>
    val sent = http(LoadSimulation.literal(q.name)).httpRequest(q.method, LoadSimulation.literal(q.path)) // never Gatling expressions
      .headers(mix.headersOf(q).asScala.toMap)
    val withBody = if (q.bodyFile.isEmpty) sent else sent.body(ByteArrayBody(q.body))
    (i: Any) -> exec(withBody.check(responseTimeInMillis.saveAs("responseTime"), status.saveAs("status"), status.in(200 to 299)))
  }
  /** One turn of the mix, sent in order by all users together: every stretch of the run holds the weights' proportions. */
  private val turn = mix.turn.asScala.map(_.intValue).toIndexedSeq
  private val sent = new java.util.concurrent.atomic.AtomicLong

  private val sendAndRecord =
    exec(_.set("sentAt", System.nanoTime()).set("request", turn((sent.getAndIncrement() % turn.size).toInt)))
      .exec(if (requests.size == 1) requests.head._2 else doSwitch("#{request}")(requests: _*)) // doSwitch needs 2 or more
      .exec { session =>
        val status = session("status").asOption[Int]
        val responseTime = session("responseTime").asOption[Int].map(_.toLong)
          .getOrElse((System.nanoTime() - session("sentAt").as[Long]) / 1000000L)
        val koReason =
          if (session.isFailed) KoReason.classify(status.getOrElse(-1), responseTime, connectTimeoutMs, requestTimeoutMs)
          else null
        run.record(session("request").as[Int], responseTime, koReason)
        arrivals.foreach(_.completed(session.userId, responseTime, koReason == null, System.currentTimeMillis()))
        session.markAsSucceeded.removeAll("status", "responseTime", "sentAt", "request")
      }

  private val users = scenario("users")
    .exec { session => run.userStarted(); session }
    .repeat(settings.pacing.repeat) {
      sendAndRecord.pause(settings.pacing.thinkMin.toMillis.millis, settings.pacing.thinkMax.toMillis.millis)
    }
    .exec { session => run.userFinished(); session }

  /** The open model: every arrival a user of its own that sends one request; a ladder that missed its SLO may stop here. */
  private def arrivalsScenario(recorder: ArrivalRecorder) = scenario("arrivals")
    .stopLoadGeneratorIf(_ => Success(recorder.stopReason), _ => Success(recorder.stopRequested))
    .exec { session =>
      run.userStarted()
      recorder.arrived(session.userId, System.currentTimeMillis())
      session
    }
    .exec(sendAndRecord)
    .exec { session => run.userFinished(); session }

  before {
    AgreedStart.await(settings)
    run.start()
    live.foreach(feed => sampler.onTick(feed))
    sampler.start()
    arrivals.foreach(_.start())
  }

  setUp(arrivals match {
    case Some(recorder) => arrivalsScenario(recorder).inject(openSteps)
    case None           => users.inject(rampUsers(settings.usersHere).during(settings.pacing.ramp.toSeconds.seconds))
  })
    .protocols(httpProtocol)
    .assertions(LoadSimulation.assertionsOf(settings): _*)

  after {
    run.finish()
    arrivals.foreach(_.finish(System.currentTimeMillis()))
    sampler.close()
    val file = settings.resultFile.toScala.getOrElse(
      ResultFile.defaultLocation(run.startedAt()))
    val result = RunResult.build(settings, preflight, run, sampler, arrivals.orNull, connectTimeoutMs, requestTimeoutMs)
    ResultFile.write(result, file)
    LoadSimulation.redirects(run.koByReason).foreach(println)
    println(ResultFile.WRITTEN + file.toAbsolutePath)
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
    // said once: the run goes on, and the result records the server as not sampled
    Option(preflight.metricsUnseenLine).foreach(println)
    if (settings.open) {
      val load = settings.openLoad.get
      val share = if (settings.split.split) s" (injector ${settings.split.index} of ${settings.split.injectors}: " +
        s"${load.rates.asScala.map(r => SimulationSettings.rate(r)).mkString(", ")} req/s of them)" else ""
      println(
        s"latency-lab: open model: ${settings.load.rates.asScala.map(r => SimulationSettings.rate(r)).mkString(", ")} req/s$share " +
          s"(${settings.load.arrivals.id} arrivals), each held ${load.level.toSeconds} s after a ${load.ramp.toSeconds} s ramp -> " +
          s"${settings.endpoint.baseUrl}${settings.endpoint.path}, SLO p99 <= ${settings.load.sloP99Ms.getAsLong} ms from due, KO <= ${settings.load.sloKoPercent}%" +
          (if (settings.load.stopOnSloMiss) ", stops at the first level that misses it" else "")
      )
      return
    }
    if (settings.endpoint.mix.mixed)
      println(s"latency-lab: ${settings.endpoint.mix.requests.size} requests sent in turn from ${settings.endpoint.mix.file.get}: " +
        settings.endpoint.mix.requests.asScala.map(q => s"${q.weight} x ${q.name}").mkString(", "))
    val share = if (settings.split.split) s" (injector ${settings.split.index} of ${settings.split.injectors}: ${settings.usersHere} of them)" else ""
    println(
      s"latency-lab: ${settings.users} users$share over ${settings.pacing.ramp.toSeconds} s -> ${settings.endpoint.baseUrl}${settings.endpoint.path}, " +
        s"${settings.pacing.repeat} requests each, think ${settings.pacing.thinkMin.toMillis}-${settings.pacing.thinkMax.toMillis} ms, " +
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

  /** The line said once when the service redirected requests: none followed, each a KO. */
  private def redirects(koByReason: java.util.Map[String, java.lang.Long]): Option[String] = {
    val redirected = koByReason.asScala.filter { case (reason, _) => reason.matches("HTTP 3[0-9][0-9]") }
    if (redirected.isEmpty) None
    else Some(s"latency-lab: the service redirected ${redirected.values.map(_.longValue).sum} requests " +
      s"(${redirected.map { case (r, n) => s"$r: $n" }.mkString(", ")}): the lab follows no redirect, so that no request leaves the " +
      "host it checked; each counts as KO. Load the URL the redirect names instead")
  }

  /** The user's assertions, and one always: a run in which no request succeeded fails. */
  private def assertionsOf(settings: SimulationSettings) =
    Seq(global.successfulRequests.count.gt(0L)) ++
    settings.assertions.p95Ms.stream().toArray.map(ms => global.responseTime.percentile(95).lte(ms.toInt)).toSeq ++
      settings.assertions.p99Ms.stream().toArray.map(ms => global.responseTime.percentile(99).lte(ms.toInt)).toSeq ++
      settings.assertions.koPercent.stream().toArray.map(pct => global.failedRequests.percent.lte(pct)).toSeq
}
