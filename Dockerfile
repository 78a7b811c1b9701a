# verifierd container image. Not built on the development machines (they have no Docker engine); a test loads the
# configuration it bakes in and runs the health command it uses.
#
#   docker build --build-arg SOURCE_URL="$(git remote get-url origin)" -t verifierd .
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

# --- base images ---
# Both pinned by digest, so a rebuild uses the same bytes. To bump one: pick the new tag, resolve its digest
#   docker buildx imagetools inspect swift:6.3-noble     # "Digest: sha256:…" of the index (all platforms)
#   docker buildx imagetools inspect ubuntu:noble
# replace the digest below, rebuild, and run `.ci/run` (scripts/ci/empty-root-run.sh proves the runtime stage's contents)
# before committing. `ReleaseFactsTests` fails if a FROM line loses its digest.
ARG SWIFT_IMAGE=swift:6.3-noble@sha256:d40382aaafd5da4b1012abb8f7689f927f18a4797825d7daaf02dd641057a167
ARG RUNTIME_IMAGE=ubuntu:noble@sha256:9d6e6f7d762bf55c4a2f17694dc43d3eefae8452ee70e067d5aa4ddd922fc462

# --- build ---
FROM ${SWIFT_IMAGE} AS build
# zlib for status lists (the CZlib system library target); OpenSSL for the HTTPS listener (COpenSSL); libcurl for the
# outbound fetcher (CCurl); zstd for zero-knowledge circuit files (CZstd). Every `.apt([...])` provider of
# Package.swift is here (ContainerLayoutTests holds them together).
RUN apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends zlib1g-dev libssl-dev \
    pkg-config libcurl4-openssl-dev libzstd-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift Package.resolved ./
COPY Sources ./Sources
COPY Plugins ./Plugins
COPY Tests ./Tests
# The one build line: scripts/ci/empty-root-run.sh reads it from here and builds the same binary with the same flags.
# --force-resolved-versions: exactly Package.resolved. --static-swift-stdlib: the Swift runtime and Foundation are
# linked in, so the runtime image needs no Swift. strip: symbols and debug info out (157 MiB down to 80 MiB, of which
# 33 MiB are the ICU data of the statically linked Foundation; scripts/ci/empty-root-run.sh prints both sizes).
RUN swift build -c release --product verifierd --static-swift-stdlib --force-resolved-versions \
 && install -D -m 0755 "$(swift build -c release --show-bin-path)/verifierd" /out/verifierd \
 && strip --strip-all /out/verifierd

# --- run ---
# Only what the binary loads at run time: libcurl (outbound fetcher) and ca-certificates for its HTTPS, zlib1g
# (status lists), libssl3t64 (HTTPS listener), libzstd1 (circuit files). No Swift, no tzdata (logs and reports are in
# UTC), no shell tools beyond the base image's.
FROM ${RUNTIME_IMAGE}
# VERSION equals `verifierd --version` (a test holds them together); SOURCE_URL is where the image was built from:
#   docker build --build-arg SOURCE_URL="$(git remote get-url origin)" -t verifierd .
ARG VERSION=0.17.0
ARG SOURCE_URL=""
LABEL org.opencontainers.image.title="verifierd" \
      org.opencontainers.image.description="Server-side verifier for ISO/IEC 18013-5 mobile documents (mDL)" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.source="${SOURCE_URL}" \
      org.opencontainers.image.licenses="Apache-2.0"
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ca-certificates libcurl4t64 zlib1g \
    libssl3t64 libzstd1 \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 verifierd \
 && useradd --system --uid 10001 --gid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin verifierd \
 && install -d -o root -g root -m 0755 /etc/verifierd \
 && install -d -o verifierd -g verifierd -m 0750 /var/lib/verifierd
COPY --from=build /out/verifierd /usr/local/bin/verifierd
COPY config/container/verifierd.json /etc/verifierd/verifierd.json
VOLUME ["/var/lib/verifierd"]
USER 10001:10001
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD ["/usr/local/bin/verifierd", "health", "--config", "/etc/verifierd/verifierd.json", "--timeout", "3"]
ENTRYPOINT ["/usr/local/bin/verifierd"]
CMD ["serve", "--config", "/etc/verifierd/verifierd.json"]
