# verifierd container image. Not built on the development machines (they have no Docker engine); a test loads the
# configuration it bakes in and runs the health command it uses.
#
#   docker build -t verifierd .
#   docker volume create verifierd-trust
#   docker run -p 8080:8080 \
#     -v "$PWD/my-config:/etc/verifierd:ro" \
#     -v verifierd-trust:/var/lib/verifierd \
#     verifierd
#
# Layout
# - /etc/verifierd (read-only): verifierd.json and what it names (keys, certificate chains, trusted-iaca/ with the
#   first IACA roots). The image carries config/container/verifierd.json there; mount a folder of your own over it.
#   Files must be readable by the service user, uid 10001 / gid 10001 (e.g. `chgrp -R 10001 my-config` and
#   `chmod -R g+rX my-config`, keys 0440); a file it cannot read stops start-up with "cannot read FILE: permission
#   denied".
# - /var/lib/verifierd (writable volume, owned by 10001): trusted-iaca/, the versioned trust set the admin API, the
#   VICAL refresher and `verifierd iaca` change; seeded once from /etc/verifierd/trusted-iaca. A bind mount must be
#   owned by (or writable for) uid 10001.
# - HEALTHCHECK runs `verifierd health`, which reads the same configuration (and VERIFIERD_* variables) and asks
#   /healthz on the port configured there (server.plainHealthPort when server.tls is on).

# --- build ---
FROM swift:6.3-noble AS build
# zlib for status lists (the CZlib system library target); OpenSSL for the HTTPS listener (COpenSSL); libcurl for the
# outbound fetcher (CCurl).
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends zlib1g-dev libssl-dev \
    pkg-config libcurl4-openssl-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift Package.resolved ./
COPY Sources ./Sources
COPY Plugins ./Plugins
COPY Tests ./Tests
RUN swift build -c release --product verifierd --static-swift-stdlib \
 && cp "$(swift build -c release --show-bin-path)/verifierd" /verifierd

# --- run ---
# With --static-swift-stdlib, Foundation is linked in; the outbound fetcher (status lists, VICALs) links the system
# libcurl; ca-certificates for its HTTPS; zlib1g inflates status lists; libssl3 serves HTTPS;
# tzdata for dates in logs.
FROM ubuntu:noble
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ca-certificates tzdata libcurl4t64 \
    zlib1g libssl3t64 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 verifierd \
 && useradd --system --uid 10001 --gid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin verifierd \
 && install -d -o root -g root -m 0755 /etc/verifierd \
 && install -d -o verifierd -g verifierd -m 0750 /var/lib/verifierd
COPY --from=build /verifierd /usr/local/bin/verifierd
COPY config/container/verifierd.json /etc/verifierd/verifierd.json
VOLUME ["/var/lib/verifierd"]
USER 10001:10001
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/verifierd", "health", "--config", "/etc/verifierd/verifierd.json", "--timeout", "3"]
ENTRYPOINT ["/usr/local/bin/verifierd"]
CMD ["serve", "--config", "/etc/verifierd/verifierd.json"]
