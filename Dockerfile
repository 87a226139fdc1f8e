# Djambi Online server image: `docker compose up -d` builds it (see docker-compose.yml), or
#   docker build -t djambi-online . && docker run -p 8080:8080 -v djambi:/data djambi-online
# (the image alone stores games in SQLite under /data).

# --- build --------------------------------------------------------------------------------------
FROM rust:1-bookworm AS build
WORKDIR /src
ENV CARGO_TERM_COLOR=never

# 1. The dependencies alone, from the manifests and stub sources: this layer is reused until
#    Cargo.toml or Cargo.lock change, so editing the code does not rebuild every crate.
COPY Cargo.toml Cargo.lock ./
COPY crates/djambi-core/Cargo.toml crates/djambi-core/
COPY crates/djambi-engine/Cargo.toml crates/djambi-engine/
COPY crates/djambi-cli/Cargo.toml crates/djambi-cli/
COPY crates/djambi-server/Cargo.toml crates/djambi-server/
RUN mkdir -p crates/djambi-core/src crates/djambi-core/benches crates/djambi-engine/src \
             crates/djambi-cli/src crates/djambi-server/src \
 && touch crates/djambi-core/src/lib.rs crates/djambi-engine/src/lib.rs \
          crates/djambi-server/src/lib.rs \
 && echo 'fn main() {}' > crates/djambi-core/benches/movegen.rs \
 && echo 'fn main() {}' > crates/djambi-cli/src/main.rs \
 && echo 'fn main() {}' > crates/djambi-server/src/main.rs \
 && cargo build --release --locked -p djambi-server \
 && rm -rf crates/*/src crates/*/benches

# 2. The real sources (the migrations and data/puzzles.json are embedded in the binary). COPY
#    keeps the files' dates, which may be older than the stubs': touch them so cargo rebuilds
#    the workspace's crates.
COPY crates crates
COPY migrations migrations
COPY data data
RUN find crates -name '*.rs' -exec touch {} + \
 && cargo build --release --locked -p djambi-server \
 && cp target/release/djambi-server /usr/local/bin/djambi-server

# --- runtime ------------------------------------------------------------------------------------
FROM debian:bookworm-slim
# curl for the healthcheck; nothing else is needed (Postgres is reached without TLS on the
# compose network, SQLite is built in).
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 djambi \
 && useradd --system --uid 10001 --gid djambi --home-dir /app --shell /usr/sbin/nologin djambi \
 && mkdir -p /app /data \
 && chown djambi:djambi /data

WORKDIR /app
COPY --from=build /usr/local/bin/djambi-server /usr/local/bin/djambi-server
COPY web /app/web

# Defaults for the image alone (mount a volume on /data to keep its SQLite database);
# docker-compose.yml sets DATABASE_URL to its Postgres.
ENV DJAMBI_BIND=0.0.0.0:8080 \
    DJAMBI_WEB_DIR=/app/web \
    DATABASE_URL=sqlite:/data/djambi.db

USER djambi:djambi
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
    CMD ["curl", "-fsS", "-o", "/dev/null", "http://127.0.0.1:8080/readyz"]
# The server stops gracefully on SIGTERM (players are told it is restarting).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/djambi-server"]
