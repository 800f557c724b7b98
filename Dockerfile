# aasa-monitor in a container. Build: docker compose build (or docker build -t aasa-monitor .).
# The image runs `aasa-monitor serve` against DATABASE_URL (see docker-compose.yml); it carries no
# PostgreSQL of its own, so DATABASE_URL is required here.

FROM swift:6.0-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends pkg-config libpq-dev libcurl4-openssl-dev libidn2-dev libsodium-dev libpsl-dev libxml2-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# The standard library is linked in, so the runtime stage needs no Swift toolchain.
RUN swift build -c release --product aasa-monitor --static-swift-stdlib \
 && mkdir -p /staging \
 && cp "$(swift build -c release --show-bin-path)/aasa-monitor" /staging/ \
 && cp -R Migrations Public /staging/

FROM debian:bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends libpq5 libcurl4 libidn2-0 libsodium23 libpsl5 publicsuffix libxml2 ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --user-group --home-dir /app --shell /usr/sbin/nologin aasa
# The binary finds Migrations/ and Public/ beside itself.
COPY --from=build /staging /app
WORKDIR /app
USER aasa
ENV AASA_MONITOR_HOST=0.0.0.0 \
    AASA_MONITOR_PORT=8080
EXPOSE 8080
ENTRYPOINT ["/app/aasa-monitor"]
CMD ["serve"]
