# meio-local/postgres: a stand-in for postgres:17 made from Debian 12's PostgreSQL 15, with
# the part of the official image's contract that compose.yaml uses: POSTGRES_USER,
# POSTGRES_PASSWORD and POSTGRES_DB make the first cluster, the data lives in
# /var/lib/postgresql/data, pg_isready is on the PATH, SIGINT stops it fast.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN mkdir -p /etc/postgresql-common \
 && echo "create_main_cluster = false" >/etc/postgresql-common/createcluster.conf \
 && apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/*
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
STOPSIGNAL SIGINT
EXPOSE 5432
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
