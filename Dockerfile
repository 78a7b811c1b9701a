# verifierd container image. Not built on the development machines (they have no Docker engine); kept simple.
#
#   docker build -t verifierd .
#   docker run -p 8080:8080 -v /path/to/config:/etc/verifierd:ro verifierd
#
# The configuration is read from /etc/verifierd/verifierd.json; relative paths in it resolve against /etc/verifierd.

# --- build ---
FROM swift:6.3-noble AS build
# zlib for status lists (the CZlib system library target); OpenSSL for the HTTPS listener (COpenSSL).
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends zlib1g-dev libssl-dev \
    pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product verifierd --static-swift-stdlib \
 && cp "$(swift build -c release --show-bin-path)/verifierd" /verifierd

# --- run ---
# libcurl4: FoundationNetworking's URLSession fetches status lists; zlib1g inflates them; libssl3 serves HTTPS.
FROM ubuntu:noble
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ca-certificates tzdata curl libcurl4 zlib1g \
    libssl3t64 \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin verifierd \
 && mkdir -p /etc/verifierd && chown verifierd /etc/verifierd
COPY --from=build /verifierd /usr/local/bin/verifierd
USER verifierd
# The service must listen on all interfaces inside the container.
ENV VERIFIERD_SERVER_HOST=0.0.0.0
EXPOSE 8080
# With server.tls, set server.plainHealthPort to 8081 (plain probes only) and point the check there instead.
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/verifierd"]
CMD ["serve", "--config", "/etc/verifierd/verifierd.json"]
