# One Dockerfile for the four images of docker-compose.yml; MODULE picks the target service.
#   service: a target (mvc-with-latency or webflux-with-latency) on a JRE, as a non-root user
#   gatling: the simulation with its build, run with the Maven wrapper like on a workstation
#   prometheus: Debian's Prometheus, for the monitor profile
# The base images are arguments with the official images as defaults; a machine without a registry passes its own
# (docs/deploy.md: Without a registry).
ARG JDK_IMAGE=eclipse-temurin:25-jdk
ARG JRE_IMAGE=eclipse-temurin:25-jre
ARG DEBIAN_IMAGE=debian:bookworm-slim

# ---- build: the whole reactor, with the JDK the code needs (>= 21)
FROM ${JDK_IMAGE} AS build
WORKDIR /src
COPY . .
# -Dlatency-lab.aot=false: the images start the jar; the AOT cache (tools/TargetLaunch.java) serves ./lab on a workstation
RUN ./mvnw -B -q -DskipTests -Dlatency-lab.aot=false package

# ---- service: one target
FROM ${JRE_IMAGE} AS service
ARG MODULE
RUN useradd --system --uid 10001 app
COPY --from=build /src/${MODULE}/target/${MODULE}-*.jar /app/app.jar
USER app
# Requests on server.port (compose sets 8080), the actuator on server.port + 1000 (readable while the pool is saturated)
EXPOSE 8080 9080 8091 8092 9091 9092
ENTRYPOINT ["java", "-jar", "/app/app.jar"]

# ---- gatling: the load, from the same build
FROM build AS gatling
# Any uid may run it (compose's LOAD_USER gives the host user's, so that reports on a bind mount are theirs).
RUN useradd --system --uid 10001 --home-dir /src load && cp -r /root/.m2 /src/.m2 && chown -R load /src && chmod -R a+rwX /src
USER load
ENV HOME=/src MAVEN_OPTS="-Dmaven.repo.local=/src/.m2/repository"
# -am: the simulation with load-contract, its sibling, from this reactor (nothing is installed in ~/.m2)
ENTRYPOINT ["./mvnw", "-B", "-pl", "gatling-scripts", "-am", "gatling:test"]

# ---- prometheus: Debian's package (2.42 on bookworm), configured at start from compose's variables
FROM ${DEBIAN_IMAGE} AS prometheus
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null \
 && rm -rf /var/lib/apt/lists/*
COPY --chmod=755 deploy/compose/prometheus.sh /usr/local/bin/prometheus.sh
USER prometheus
ENTRYPOINT ["/usr/local/bin/prometheus.sh"]
