# Djambi Online server image: `docker compose up -d` builds it (see docker-compose.yml), or
#   docker build -t djambi-online . && docker run -p 8080:8080 -v djambi:/data djambi-online
# (the image alone stores games in SQLite under /data).
#
# The dependencies are built in a layer of their own with cargo-chef (`prepare` reads every
# manifest of the workspace and writes a recipe; `cook` builds the dependencies from it, with
# every target — bench, example, test, binary — stubbed by cargo-chef itself). That layer is
# reused until a manifest or Cargo.lock changes, so editing the code rebuilds only our crates,
# and adding a target needs no change here. cargo-chef rather than BuildKit cache mounts: it
# gives ordinary layers, so it caches the same on Docker with or without BuildKit, on
# docker-compose 1.x and on podman (scripts/container-check.sh builds it there in CI).

# --- build --------------------------------------------------------------------------------------
FROM rust:1-bookworm AS chef
ENV CARGO_TERM_COLOR=never
RUN cargo install cargo-chef --locked --version 0.1.78
WORKDIR /src

# 1. The recipe: what the dependency layer depends on (manifests and the lock file only).
FROM chef AS planner
COPY . .
RUN cargo chef prepare --recipe-path recipe.json

# 2. The dependencies alone, from the recipe (rebuilt only when the recipe changes).
FROM chef AS build
COPY --from=planner /src/recipe.json recipe.json
RUN cargo chef cook --release --locked -p djambi-server --recipe-path recipe.json

# 3. Our crates (the migrations and data/puzzles.json are embedded in the binary). COPY keeps
#    the files' dates, which may be older than the stubs cargo-chef built: touch them so cargo
#    rebuilds the workspace's own crates.
COPY . .
RUN find crates -name '*.rs' -exec touch {} + \
 && cargo build --release --locked -p djambi-server \
 && cp target/release/djambi-server /usr/local/bin/djambi-server

# --- runtime ------------------------------------------------------------------------------------
# Nothing but the binary, the browser client and an unprivileged user: the healthcheck is the
# server's own (`djambi-server --healthcheck`), Postgres is reached without TLS on the compose
# network, SQLite is built in, and Web Push carries its own root certificates.
FROM debian:bookworm-slim
RUN groupadd --system --gid 10001 djambi \
 && useradd --system --uid 10001 --gid djambi --home-dir /app --shell /usr/sbin/nologin djambi \
 && mkdir -p /app /data \
 && chown djambi:djambi /data

WORKDIR /app
COPY --from=build /usr/local/bin/djambi-server /usr/local/bin/djambi-server
COPY web /app/web

# Defaults for the image alone (mount a volume on /data to keep its SQLite database);
# docker-compose.yml sets DATABASE_URL to its Postgres. DJAMBI_IN_CONTAINER: the server never
# guesses a network address for the links it logs (the container's own is not the host's).
ENV DJAMBI_BIND=0.0.0.0:8080 \
    DJAMBI_WEB_DIR=/app/web \
    DATABASE_URL=sqlite:/data/djambi.db \
    DJAMBI_IN_CONTAINER=1

USER djambi:djambi
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
    CMD ["/usr/local/bin/djambi-server", "--healthcheck"]
# The server stops gracefully on SIGTERM (players are told it is restarting).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/djambi-server"]
