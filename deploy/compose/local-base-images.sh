#!/usr/bin/env bash
# Base images for docker-compose.yml on a machine that cannot pull from a registry: a Debian root file system from
# Debian's own packages (debootstrap), this machine's JDK 25 on it for the Dockerfile's JDK_IMAGE and JRE_IMAGE, and
# Debian's PostgreSQL behind the few lines of the official image's entrypoint that compose's postgres service uses,
# and the Debian image itself for the monitor profile's Prometheus.
# Run as root (debootstrap). Prints the variables that hand the images to compose. The images' tag is this script's
# hash: an image already built by this very script is kept, a changed script builds new ones.
#
#   eval "$(deploy/compose/local-base-images.sh)" && docker-compose build
#
# ENGINE (podman or docker), JDK_HOME (a JDK 25 on this machine) and MIRROR (a Debian mirror) may be set.
set -euo pipefail
ENGINE=${ENGINE:-podman}
JDK_HOME=${JDK_HOME:-$(ls -d /usr/lib/jvm/temurin-25-jdk* 2>/dev/null | head -1)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
TAG=$(sha256sum "$0" | cut -c1-12)
DEBIAN_IMAGE=localhost/latency-lab-base/debian:$SUITE-$TAG
JDK_IMAGE=localhost/latency-lab-base/jdk:25-$TAG
POSTGRES_IMAGE=localhost/latency-lab-base/postgres:15-$TAG

say() { echo "local-base-images: $*" >&2; }
has() { "$ENGINE" image inspect "$1" >/dev/null 2>&1; }

"${JDK_HOME:-/nowhere}/bin/java" -version 2>&1 | grep -q 'version "25' \
  || { say "JDK_HOME=$JDK_HOME is not a JDK 25 (the code needs >= 21, the official images are 25): set JDK_HOME"; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! has "$DEBIAN_IMAGE"; then
  command -v debootstrap >/dev/null || { say "debootstrap is not installed: apt-get install debootstrap"; exit 2; }
  say "debootstrap $SUITE from $MIRROR"
  # fontconfig and a font, as the official Temurin images have: the lab draws its charts with Java2D
  debootstrap --variant=minbase --include=fontconfig,fonts-dejavu-core "$SUITE" "$work/rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  tar -C "$work/rootfs" -c . | "$ENGINE" import - "$DEBIAN_IMAGE" >"$work/import.log" 2>&1 || { cat "$work/import.log" >&2; exit 1; }
  rm -rf "$work/rootfs"
fi

if ! has "$JDK_IMAGE"; then
  say "$JDK_IMAGE from $JDK_HOME"
  mkdir -p "$work/jdk"
  # -L: Debian's JDK packages link cacerts to /etc/ssl/certs, which the image does not have (Maven needs the file)
  cp -rL "$JDK_HOME" "$work/jdk/jdk"
  "$ENGINE" build -q -t "$JDK_IMAGE" -f - "$work/jdk" >/dev/null <<EOF
FROM $DEBIAN_IMAGE
COPY jdk /opt/java/openjdk
ENV JAVA_HOME=/opt/java/openjdk PATH=/opt/java/openjdk/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
EOF
fi

if ! has "$POSTGRES_IMAGE"; then
  say "$POSTGRES_IMAGE from Debian's postgresql-15"
  mkdir -p "$work/postgres"
  # What compose's postgres service relies on in the official image: POSTGRES_HOST_AUTH_METHOD, a database that
  # other containers reach, "postgres -c ..." as the command, pg_isready on the PATH.
  cat >"$work/postgres/entrypoint.sh" <<'EOF'
#!/bin/sh
set -e
install -d -o postgres -g postgres -m 2775 /var/run/postgresql
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  install -d -o postgres -g postgres -m 700 "$PGDATA"
  runuser -u postgres -- initdb -D "$PGDATA" -U postgres --auth-local=trust --auth-host="${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}" >/dev/null
  echo "host all all all ${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}" >>"$PGDATA/pg_hba.conf"
  echo "listen_addresses = '*'" >>"$PGDATA/postgresql.conf"
fi
exec runuser -u postgres -- "$@"
EOF
  "$ENGINE" build -q -t "$POSTGRES_IMAGE" -f - "$work/postgres" >/dev/null <<EOF
FROM $DEBIAN_IMAGE
RUN mkdir -p /etc/postgresql-common && echo 'create_main_cluster = false' >/etc/postgresql-common/createcluster.conf \
 && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null \
 && rm -rf /var/lib/apt/lists/*
COPY --chmod=755 entrypoint.sh /usr/local/bin/docker-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin PGDATA=/var/lib/postgresql/data
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
EOF
fi

echo "export JDK_IMAGE=$JDK_IMAGE JRE_IMAGE=$JDK_IMAGE POSTGRES_IMAGE=$POSTGRES_IMAGE DEBIAN_IMAGE=$DEBIAN_IMAGE"
