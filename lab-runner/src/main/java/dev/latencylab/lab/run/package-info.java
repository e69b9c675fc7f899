/**
 * Running a target: start it (and its database or downstream) as its own process, warm it up, run Gatling's JVM
 * against it, watch its dependencies, end everything it started, even on a signal; and the run's record (point.json).
 * <p>
 * SingleRun (one run in its folder, locked, its record written), RunProperties (its simulation properties from its
 * options and -D: refusals, then assembly), ServiceRun (a service of the user's, --url), ServiceJar (its jar, --jar),
 * ServiceSpec (such a service as a sweep or capacity search keeps it), SecretHeaders (its headers: their names
 * written, never their values), ServiceTls (how it is reached over https: --ca-cert, --insecure, --http2),
 * OwnSimulation (a Gatling simulation of the user's, --simulation: checked, compiled, its classes removed after),
 * PinnedHosts (the addresses its host had when checked, which the load is held to), Jdk (another JDK for a target,
 * --jdk), TargetRun, TargetProcess, RunCertificate (the certificate the -tls and -h2 targets serve, made for the
 * process by keytool, never kept), TrustStores (trust stores written from certificates, in the process's own folder),
 * FreePorts (ports below the kernel's outgoing range, for what the lab starts, each reserved by a file lock until its
 * process ends), PortHolder (which process holds a port, for the refusal), EmbeddedDatabase, DependencyWatch,
 * RunWatch (what follows runs one after the other as they go: the live view), Warmup, SocketDrain, GatlingLauncher,
 * Overhead, JvmEvents (the target's flight recording, read within the run), StopOnSignal (the one hook a signal
 * runs), RunOutcome (finished or stopped), Point (one run of a point), PointRecord (its point.json), Status (how a run,
 * a point, a capacity ladder or a footprint measurement ended: done, failed, interrupted).
 */
package dev.latencylab.lab.run;
