# One Dockerfile for the three images of docker-compose.yml; MODULE picks the target service.
#   service: a target (mvc-with-latency or webflux-with-latency) on a JRE, as a non-root user
#   gatling: the simulation with its build, run with the Maven wrapper like on a workstation

# ---- build: the whole reactor, with the JDK the code needs (>= 21)
FROM eclipse-temurin:25-jdk AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -DskipTests package

# ---- service: one target
FROM eclipse-temurin:25-jre AS service
ARG MODULE
RUN useradd --system --uid 10001 app
COPY --from=build /src/${MODULE}/target/${MODULE}-*.jar /app/app.jar
USER app
# 8091/8092: requests; 9091/9092: actuator (its own port, readable while the request pool is saturated)
EXPOSE 8091 8092 9091 9092
ENTRYPOINT ["java", "-jar", "/app/app.jar"]

# ---- gatling: the load, from the same build
FROM build AS gatling
RUN useradd --system --uid 10001 --home-dir /src load && cp -r /root/.m2 /src/.m2 && chown -R load /src
USER load
ENV MAVEN_OPTS="-Dmaven.repo.local=/src/.m2/repository"
ENTRYPOINT ["./mvnw", "-B", "-pl", "gatling-scripts", "gatling:test"]
