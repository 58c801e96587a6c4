# meio-local/caddy: a stand-in for caddy:2 made from Debian 12's caddy package (2.6), with
# the official image's layout: /etc/caddy/Caddyfile, data in /data, config in /config.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends caddy \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /config /data
ENV XDG_CONFIG_HOME=/config XDG_DATA_HOME=/data
EXPOSE 80 443
CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]
