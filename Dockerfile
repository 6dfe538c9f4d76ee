# syntax=docker/dockerfile:1
# Release image for the trip history server: built with the official Swift image, run on plain Ubuntu
# as a non-root user. The Swift runtime and Foundation (with its ICU data) are linked statically, so the
# runtime stage only needs libpq, time zone data and CA certificates (curl serves the HEALTHCHECK).
#
#   docker build -t trip-history .
#   docker build --build-arg SWIFT_VERSION=6.2 -t trip-history .   # another toolchain

# Matches the toolchain CI uses; the runtime stage below must be the same Ubuntu release (noble).
ARG SWIFT_VERSION=6.3

FROM swift:${SWIFT_VERSION}-noble AS build
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libpq-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build
# Dependencies first, so they stay cached while only sources change.
COPY ./Package.* ./
RUN swift package resolve
COPY . .
RUN swift build -c release --static-swift-stdlib --product trip-history
WORKDIR /staging
RUN cp "$(swift build --package-path /build -c release --show-bin-path)/trip-history" ./ \
    && find -L "$(swift build --package-path /build -c release --show-bin-path)/" -maxdepth 1 \
        -regex '.*\.resources$' -exec cp -Ra {} ./ \;

FROM ubuntu:noble
RUN export DEBIAN_FRONTEND=noninteractive \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libpq5 tzdata ca-certificates curl \
    && rm -rf /var/lib/apt/lists/*
RUN useradd --user-group --system --no-create-home --home-dir /app --shell /usr/sbin/nologin trip-history
WORKDIR /app
COPY --from=build --chown=root:root /staging /app
USER trip-history:trip-history
# The metrics listener (GET /metrics, no token) listens on every interface of the container so a scraper on
# the container network reaches it; publish its port only to that network, never next to 8080.
# The migrations and the OpenAPI document are built into the binary (TRIP_HISTORY_MIGRATIONS and
# TRIP_HISTORY_OPENAPI would replace them with files), so the image needs no file beside the binary.
ENV TRIP_HISTORY_METRICS_HOST=0.0.0.0
EXPOSE 8080 9464
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/healthz >/dev/null || exit 1
ENTRYPOINT ["/app/trip-history"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]
