#!/usr/bin/env bash
# Proves the self-hosting setup without a Docker engine:
#   1. docker-compose.yml is valid (`docker-compose config`, with .env.example as the .env) and
#      has what the issue asks (Postgres 16 on a named volume, healthchecks, restart policies,
#      the server waiting for a healthy database); .env.example documents every variable the
#      server reads, with its real default;
#   2. the release server runs with exactly the server container's environment (the image's
#      ENV, then the compose `environment`, the env file included), rewritten only where the
#      container differs from this machine: the database host `db` → the local Postgres (a
#      fresh database, dropped afterwards), the bind address 0.0.0.0:8080 → 127.0.0.1 and a
#      free port, the client directory /app/web → ./web;
#   3. a game is played over WebSocket (every seat and a spectator connected); the server is
#      stopped with SIGTERM mid-turn (every client must get {"type":"restarting"} and a close
#      frame with a reason), SIGKILLed mid-turn (no acknowledged move may be lost) and stopped
#      with SIGINT; after each restart the game must be intact (same v, same DPN, same turns,
#      every seat token accepted) and play must go on;
#   4. /metrics has the required families; a database failure (a trigger refusing inserts) is
#      answered `internal` without the database's text, changes nothing and is counted; the JSON
#      logs name the game and never show a seat token or the database password (also checked
#      once with RUST_LOG=debug).
# Loopback only; every step is time-bounded; the server, the database and the temporary files
# are removed on exit. Any mismatch fails (exit status 1).
#
# Usage: scripts/compose-check.sh   (env: DJAMBI_CHECK_POSTGRES=postgres://postgres@127.0.0.1:5432)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
ADMIN_URL=${DJAMBI_CHECK_POSTGRES:-postgres://postgres@127.0.0.1:5432}

step() { printf '\n=== compose-check: %s ===\n' "$*"; }
fail() {
  printf '\ncompose-check: FAIL: %s\n' "$*" >&2
  exit 1
}

command -v docker-compose >/dev/null 2>&1 ||
  fail "docker-compose is not installed (apt-get install -y --no-install-recommends docker-compose)"
# docker-compose is a Python program that needs PyYAML: use its interpreter to read its output.
PY=$(sed -n '1s/^#! *\([^ ]*\).*/\1/p' "$(command -v docker-compose)")
if [ -z "$PY" ] || ! "$PY" -c 'import yaml' 2>/dev/null; then PY=python3; fi
"$PY" -c 'import yaml' 2>/dev/null || fail "no Python with PyYAML to read the compose config"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/djambi-compose-check.XXXXXX")
SERVER_PID=""
DB_NAME=""
ROLE_CREATED=""
LOG="$WORK/server.log"

psql_admin() { timeout 30 psql "$ADMIN_URL/postgres" -v ON_ERROR_STOP=1 -qAt "$@"; }

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  if [ -n "$DB_NAME" ]; then
    psql_admin -c "DROP DATABASE IF EXISTS \"$DB_NAME\" WITH (FORCE)" || true
  fi
  if [ -n "$ROLE_CREATED" ]; then
    psql_admin -c "DROP ROLE IF EXISTS \"$ROLE_CREATED\"" || true
  fi
  if [ "$status" -ne 0 ] && [ -f "$LOG" ]; then
    echo "--- last lines of the server log ($LOG) ---" >&2
    tail -n 40 "$LOG" >&2 || true
  fi
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- 1. the compose file ------------------------------------------------------------------------
step "docker-compose config (docker-compose $(docker-compose version --short 2>/dev/null))"
mkdir "$WORK/project"
cp docker-compose.yml Dockerfile .dockerignore "$WORK/project/"
mkdir -p "$WORK/project/deploy"
cp deploy/haproxy.cfg "$WORK/project/deploy/"
cp .env.example "$WORK/project/.env"
(cd "$WORK/project" && timeout 60 docker-compose config -q) || fail "docker-compose config rejects the file"
(cd "$WORK/project" && timeout 60 docker-compose config) >"$WORK/config.yml"
echo "services: $(cd "$WORK/project" && docker-compose config --services | tr '\n' ' ')"
echo "volumes:  $(cd "$WORK/project" && docker-compose config --volumes | tr '\n' ' ')"
# Without a password the file must refuse to start (the db service needs one).
if (cd "$WORK/project" && grep -v '^POSTGRES_PASSWORD=' .env >.env.nopass && mv .env.nopass .env &&
  timeout 60 docker-compose config -q) 2>/dev/null; then
  fail "docker-compose config accepts a missing POSTGRES_PASSWORD"
fi
cp .env.example "$WORK/project/.env"
echo "a missing POSTGRES_PASSWORD is refused"
# A self-hoster sets a real password, as .env.example asks; the placeholder itself is refused
# by the server at start (checked below, once the server is built).
PLACEHOLDER=$(sed -n 's/^POSTGRES_PASSWORD=//p' .env.example)
sed -i "s/^POSTGRES_PASSWORD=.*/POSTGRES_PASSWORD=$(head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n')/" "$WORK/project/.env"
(cd "$WORK/project" && timeout 60 docker-compose config) >"$WORK/config.yml"

if command -v haproxy >/dev/null 2>&1; then
  haproxy -c -q -f deploy/haproxy.cfg || fail "haproxy rejects deploy/haproxy.cfg"
  echo "haproxy $(haproxy -v | head -1 | awk '{print $3}') accepts deploy/haproxy.cfg (the profile cluster's load balancer)"
fi

step "the server's environment, from the compose config"
echo "building the release server and the smoke client (reused when up to date)"
timeout 3600 cargo build --release --quiet -p djambi-server --bins --examples ||
  fail "cargo build failed"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
SERVER="$TARGET/release/djambi-server"
SMOKE="$TARGET/release/examples/smoke"

# The placeholder password of .env.example is refused at start, with a clear message.
if placeholder_out=$(DATABASE_URL="postgres://djambi:$PLACEHOLDER@127.0.0.1:1/djambi" \
  timeout 20 "$SERVER" 2>&1); then
  fail "the server started with the placeholder password"
fi
echo "$placeholder_out" | grep -q "placeholder" ||
  fail "the refusal of the placeholder password does not say why: $placeholder_out"
echo "the placeholder password of .env.example is refused at start"

PORT=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
DB_NAME="djambi_compose_check_$$_$(date +%s)"
env -i "$SERVER" --help >"$WORK/help.txt"
"$PY" - "$WORK/config.yml" Dockerfile .env.example crates/djambi-server/src/config \
  "$WORK/help.txt" "$PORT" "$DB_NAME" "$ADMIN_URL" "$ROOT/web" "$WORK" <<'PY'
import os, re, sys, urllib.parse, yaml

config_path, dockerfile, env_example, config_rs, help_txt, port, db_name, admin_url, web_dir, work = sys.argv[1:]
failures = []
def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)

config = yaml.safe_load(open(config_path))
services = config.get("services", {})
cluster_services = {"nats", "node1", "node2", "node3", "lb"}
check(set(services) == {"db", "server"} | cluster_services,
      "services are db and server, and nats, node1-3 and lb for the cluster")
db, server = services.get("db", {}), services.get("server", {})

# Profiles: `single` (the default, via COMPOSE_PROFILES in .env) runs db + server; `cluster`
# runs db + nats + three nodes + the load balancer. The database is in both.
profiles = {name: svc.get("profiles") for name, svc in services.items()}
check(profiles.get("db") is None, "db belongs to every profile")
check(profiles.get("server") == ["single"], "server is the profile `single`")
check(all(profiles.get(n) == ["cluster"] for n in cluster_services),
      "nats, node1-3 and lb are the profile `cluster`")
check(re.search(r"^COMPOSE_PROFILES=single$", open(env_example).read(), re.M) is not None,
      ".env.example makes `single` the default profile")

# db: Postgres 16 on a named volume, pg_isready, restart policy.
check(str(db.get("image", "")).startswith("postgres:16"), "db image is postgres:16")
named = set((config.get("volumes") or {}).keys())
def mounts(service):
    for v in service.get("volumes", []):
        if isinstance(v, str):
            source, target = v.split(":")[0], v.split(":")[1]
        else:
            source, target = v.get("source"), v.get("target")
        yield source, target
check(any(s in named and t == "/var/lib/postgresql/data" for s, t in mounts(db)),
      "db data on a named volume")
check("pg_isready" in " ".join(db.get("healthcheck", {}).get("test", [])), "db healthcheck runs pg_isready")
check(db.get("restart") == "unless-stopped", "db restart: unless-stopped")

# server: built here, waits for a healthy db, /readyz healthcheck, restart policy, port 8080.
check("build" in server, "server is built from the Dockerfile")
dep = server.get("depends_on", {})
check(isinstance(dep, dict) and dep.get("db", {}).get("condition") == "service_healthy",
      "server waits for a healthy db")
check("/readyz" in " ".join(server.get("healthcheck", {}).get("test", [])), "server healthcheck hits /readyz")
check(server.get("restart") == "unless-stopped", "server restart: unless-stopped")
def port_pairs(service):
    for p in service.get("ports", []):
        if isinstance(p, dict):
            yield str(p.get("published")), str(p.get("target"))
        else:
            parts = str(p).split(":")
            yield parts[-2], parts[-1]
check(("8080", "8080") in set(port_pairs(server)), "server published on 8080:8080")

# The cluster: each node is the same image, on the db and NATS services, with its own name, not
# published; the load balancer (a stock HAProxy) is the only published port and checks /readyz.
nodes = [services.get(n, {}) for n in ("node1", "node2", "node3")]
def env_of(service):
    e = service.get("environment", {})
    return dict(item.split("=", 1) for item in e) if isinstance(e, list) else e
names = set()
for i, node in enumerate(nodes, 1):
    env = env_of(node)
    names.add(env.get("DJAMBI_NODE_NAME"))
    check(node.get("image") == server.get("image") and "build" in node, f"node{i} is the server image")
    check(env.get("DJAMBI_NATS_URL") == "nats://nats:4222", f"node{i} joins the cluster through nats")
    check(urllib.parse.urlsplit(env.get("DATABASE_URL", "")).hostname == "db", f"node{i} uses the db service")
    check(not node.get("ports"), f"node{i} is not published (only through lb)")
    check("/readyz" in " ".join(node.get("healthcheck", {}).get("test", [])), f"node{i} healthcheck hits /readyz")
    deps = node.get("depends_on", {})
    check(isinstance(deps, dict) and deps.get("db", {}).get("condition") == "service_healthy"
          and deps.get("nats", {}).get("condition") == "service_healthy",
          f"node{i} waits for a healthy db and nats")
    check(node.get("restart") == "unless-stopped", f"node{i} restart: unless-stopped")
check(len(names) == 3 and None not in names, "the nodes have three different names")
nats = services.get("nats", {})
check(str(nats.get("image", "")).startswith("nats:"), "nats is the stock NATS image")
check("healthz" in " ".join(nats.get("healthcheck", {}).get("test", [])), "nats has a healthcheck")
lb = services.get("lb", {})
check(str(lb.get("image", "")).startswith("haproxy:"), "lb is a stock HAProxy")
check(("8080", "8080") in set(port_pairs(lb)), "lb published on 8080:8080")
check(any(str(t) == "/usr/local/etc/haproxy/haproxy.cfg" for _, t in mounts(lb)), "lb reads deploy/haproxy.cfg")
haproxy_cfg = open("deploy/haproxy.cfg").read()
check("option httpchk GET /readyz" in haproxy_cfg, "haproxy health-checks the nodes on /readyz")
check("timeout tunnel" in haproxy_cfg, "haproxy keeps WebSockets open (timeout tunnel)")
check(all(f"server node{i} node{i}:8080 check" in haproxy_cfg for i in (1, 2, 3)),
      "haproxy balances over node1-3")

# The image's first stage copies every crate's manifest (a crate missing there fails the build).
import os
dockerfile_text = open(dockerfile).read()
crates = sorted(d for d in os.listdir("crates") if os.path.isfile(f"crates/{d}/Cargo.toml"))
missing = [c for c in crates if f"COPY crates/{c}/Cargo.toml" not in dockerfile_text]
check(not missing, f"the Dockerfile copies every crate's manifest ({', '.join(crates)})" +
      (f" (missing: {missing})" if missing else ""))

# The container's environment: the image's ENV, then the compose environment.
env = {}
text = re.sub(r"\\\n", " ", open(dockerfile).read())
runtime = text.split("\nFROM ")[-1]  # the last stage
for line in runtime.splitlines():
    if line.startswith("ENV "):
        for key, value in re.findall(r"(\w+)=(\S+)", line[4:]):
            env[key] = value
image_env = dict(env)
compose_env = server.get("environment", {})
if isinstance(compose_env, list):
    compose_env = dict(item.split("=", 1) for item in compose_env)
env.update({k: "" if v is None else str(v) for k, v in compose_env.items()})

# Every variable the server reads is documented in .env.example, with its real default.
# The flags live in the config folder, one file per group of parts.
config_text = "".join(
    open(os.path.join(config_rs, f)).read() for f in sorted(os.listdir(config_rs)) if f.endswith(".rs")
)
read = re.findall(r'env = "(\w+)"', config_text)
example = open(env_example).read()
documented = dict(re.findall(r"^#?\s?([A-Z_][A-Z0-9_]*)=(.*)$", example, re.M))
missing = [v for v in read if v not in documented]
check(not missing and len(read) > 10, f".env.example documents all {len(read)} server variables" +
      (f" (missing: {missing})" if missing else ""))
defaults = {}
for name, rest in re.findall(r"\[env: (\w+)=[^\]]*\]((?:\s*\[[^\]]*\])*)", open(help_txt).read()):
    m = re.search(r"\[default: ([^\]]*)\]", rest)
    if m:
        defaults[name] = m.group(1)
commented = dict(re.findall(r"^#([A-Z_][A-Z0-9_]*)=(.*)$", example, re.M))
wrong = [f"{k}={commented[k]} (default {defaults[k]})" for k in commented
         if k in defaults and commented[k] != defaults[k]]
check(not wrong and len(defaults) > 10, f"the commented defaults in .env.example are the server's ({len(defaults)} checked)" +
      (f" (wrong: {wrong})" if wrong else ""))
for key in ("POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"):
    check(key in documented, f".env.example sets {key}")

# Rewrites: only where the container differs from this machine.
url = urllib.parse.urlsplit(env.get("DATABASE_URL", ""))
check(url.scheme == "postgres" and url.hostname == "db", "DATABASE_URL points at the db service")
check(env.get("DJAMBI_BIND") == "0.0.0.0:8080", "the server listens on 0.0.0.0:8080 in the container")
check(env.get("DJAMBI_LOG_FORMAT") == "json", "logs are JSON")
admin = urllib.parse.urlsplit(admin_url)
user = urllib.parse.unquote(url.username or "")
password = urllib.parse.unquote(url.password or "")
netloc = f"{url.username}:{url.password}@{admin.hostname}:{admin.port or 5432}"
rewritten = dict(env)
rewritten["DATABASE_URL"] = urllib.parse.urlunsplit((url.scheme, netloc, "/" + db_name, url.query, ""))
rewritten["DJAMBI_BIND"] = f"127.0.0.1:{port}"
if rewritten.get("DJAMBI_WEB_DIR") == "/app/web":
    rewritten["DJAMBI_WEB_DIR"] = web_dir

print("\nthe server's environment (image ENV + compose; secrets masked; → rewritten):")
for key in sorted(rewritten):
    shown = env.get(key, "")
    if password:
        shown = shown.replace(password, "****")
    new = rewritten[key].replace(password, "****") if password else rewritten[key]
    source = "compose" if key in compose_env else "image"
    print(f"  {key}={shown}  [{source}]" + (f"  → {new}" if new != shown else ""))

with open(f"{work}/server.env", "w") as f:
    for key, value in rewritten.items():
        f.write(f"{key}={value}\0")
with open(f"{work}/db.txt", "w") as f:
    f.write(f"{user}\n{password}\n{env.get('DJAMBI_SHUTDOWN_SECS', defaults.get('DJAMBI_SHUTDOWN_SECS', '10'))}\n")
if failures:
    sys.exit(f"{len(failures)} check(s) failed")
PY
mapfile -d '' SERVER_ENV <"$WORK/server.env"
{
  read -r DB_USER
  read -r DB_PASSWORD
  read -r SHUTDOWN_SECS
} <"$WORK/db.txt"
URL="http://127.0.0.1:$PORT"

# --- 2. the database ------------------------------------------------------------------------------
step "a fresh database $DB_NAME on the local Postgres, owned by the compose user $DB_USER"
timeout 30 pg_isready -h 127.0.0.1 -p 5432 -q || fail "no Postgres on 127.0.0.1:5432"
psql_admin -c "SELECT 1" >/dev/null || fail "cannot reach $ADMIN_URL as an administrator"
if [ "$(psql_admin -c "SELECT count(*) FROM pg_roles WHERE rolname = '$DB_USER'")" = 0 ]; then
  psql_admin -c "CREATE ROLE \"$DB_USER\" LOGIN PASSWORD '$DB_PASSWORD'"
  ROLE_CREATED=$DB_USER
fi
psql_admin -c "CREATE DATABASE \"$DB_NAME\" OWNER \"$DB_USER\""

# --- 3. the server, run and restarted -----------------------------------------------------------
# start_server [LOG_FILE [NAME=VALUE…]]: the compose environment, then the given overrides.
start_server() {
  local log=${1:-$LOG}
  shift || true
  env -i "${SERVER_ENV[@]}" "$@" "$SERVER" >>"$log" 2>&1 &
  SERVER_PID=$!
  local i
  for i in $(seq 1 120); do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      fail "the server exited at start"
    fi
    if curl -fsS -o /dev/null --max-time 2 "$URL/readyz" 2>/dev/null; then
      echo "server $SERVER_PID ready on $URL (/readyz 200)"
      return 0
    fi
    sleep 0.25
  done
  fail "the server was not ready within 30 s"
}

# Waits for the server to exit; checks its status (an exit code, or 137 for SIGKILL).
wait_server() {
  local expected=$1 limit=$2 i status=0 started
  started=$(date +%s%N)
  for i in $(seq 1 $((limit * 4))); do
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.25
  done
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    fail "the server is still running ${limit} s after the signal"
  fi
  wait "$SERVER_PID" || status=$?
  SERVER_PID=""
  [ "$status" = "$expected" ] || fail "the server exited with status $status, expected $expected"
  echo "the server exited with status $status (waited $((($(date +%s%N) - started) / 1000000)) ms)"
  if curl -fsS -o /dev/null --max-time 2 "$URL/healthz" 2>/dev/null; then
    fail "something still answers on $URL after the server exited"
  fi
}

smoke() { timeout 180 "$SMOKE" "$@"; }
STATE="$WORK/game.json"
CLOSE_WAIT=$((SHUTDOWN_SECS * 2 + 15))
STOP_LIMIT=$((SHUTDOWN_SECS * 3 + 10))

step "start; play 6 turns over WebSocket (4 seats + a spectator); /metrics while connected"
start_server
MIGRATIONS=$(timeout 30 psql "$ADMIN_URL/$DB_NAME" -qAt -c 'SELECT count(*) FROM _sqlx_migrations WHERE success')
[ "${MIGRATIONS:-0}" -ge 1 ] || fail "no migration recorded in _sqlx_migrations"
echo "migrations ran on start: $MIGRATIONS recorded in _sqlx_migrations"
smoke play --url "$URL" --state "$STATE" --new --turns 6 --metrics-out "$WORK/metrics.txt"
for family in "djambi_live_games gauge" "djambi_connections gauge" "djambi_turns counter" \
  "djambi_commit_seconds histogram" "djambi_db_errors counter"; do
  grep -qx "# TYPE $family" "$WORK/metrics.txt" || fail "/metrics lacks # TYPE $family"
done
grep -q '^djambi_connections{role="player"}' "$WORK/metrics.txt" || fail "no connections by role"
grep -q '^djambi_turns_total{result="rejected"}' "$WORK/metrics.txt" || fail "no rejected turns series"
grep -q '^djambi_commit_seconds_bucket{le="+Inf"}' "$WORK/metrics.txt" || fail "no histogram buckets"
echo "/metrics: live games, connections by role, turns accepted/rejected, commit latency histogram, database errors"

step "SIGTERM in the middle of a turn: restarting + close frame for every client, clean exit"
smoke play --url "$URL" --state "$STATE" --turns 2 --signal TERM --pid "$SERVER_PID" --close-wait-secs "$CLOSE_WAIT"
wait_server 0 "$STOP_LIMIT"
grep -q 'SIGTERM received' "$LOG" || fail "the log does not show SIGTERM received"

step "restart: the game is intact, and play goes on"
start_server
smoke verify --url "$URL" --state "$STATE" --allow-unacked 0
smoke play --url "$URL" --state "$STATE" --turns 3

step "SIGKILL in the middle of a turn: no acknowledged move lost"
smoke play --url "$URL" --state "$STATE" --turns 2 --signal KILL --pid "$SERVER_PID" --close-wait-secs 15
wait_server 137 15
start_server
smoke verify --url "$URL" --state "$STATE" --allow-unacked 1
smoke play --url "$URL" --state "$STATE" --turns 2

step "a database failure: the move refused (internal, no database text), counted, nothing changed"
MARKER="compose-check-injected-failure"
timeout 30 psql "$ADMIN_URL/$DB_NAME" -v ON_ERROR_STOP=1 -q <<SQL
CREATE FUNCTION compose_check_fail() RETURNS trigger LANGUAGE plpgsql AS
  \$\$ BEGIN RAISE EXCEPTION '$MARKER'; END \$\$;
CREATE TRIGGER compose_check_fail BEFORE INSERT ON events
  FOR EACH ROW EXECUTE FUNCTION compose_check_fail();
SQL
smoke play --url "$URL" --state "$STATE" --turns 0 --expect-db-failure "$MARKER"
timeout 30 psql "$ADMIN_URL/$DB_NAME" -v ON_ERROR_STOP=1 -q \
  -c 'DROP TRIGGER compose_check_fail ON events' -c 'DROP FUNCTION compose_check_fail()'
smoke verify --url "$URL" --state "$STATE" --allow-unacked 0
smoke play --url "$URL" --state "$STATE" --turns 1

step "SIGINT in the middle of a turn: the same graceful stop"
smoke play --url "$URL" --state "$STATE" --turns 1 --signal INT --pid "$SERVER_PID" --close-wait-secs "$CLOSE_WAIT"
wait_server 0 "$STOP_LIMIT"
grep -q 'SIGINT received' "$LOG" || fail "the log does not show SIGINT received"
start_server
smoke verify --url "$URL" --state "$STATE" --allow-unacked 0
smoke play --url "$URL" --state "$STATE" --turns 2
kill -TERM "$SERVER_PID"
wait_server 0 "$STOP_LIMIT"

step "once more with RUST_LOG=debug (the only change): debug logs keep the tokens out too"
DEBUG_LOG="$WORK/server-debug.log"
start_server "$DEBUG_LOG" RUST_LOG=debug
smoke verify --url "$URL" --state "$STATE" --allow-unacked 0
smoke play --url "$URL" --state "$STATE" --turns 2
kill -TERM "$SERVER_PID"
wait_server 0 "$STOP_LIMIT"

# --- 4. the logs --------------------------------------------------------------------------------
step "the JSON logs: game ids, never a token or the database password"
for log in "$LOG" "$DEBUG_LOG"; do
echo "$(basename "$log"):"
"$PY" - "$log" "$STATE" "$DB_PASSWORD" "$MARKER" <<'PY'
import json, sys
log_path, state_path, password, marker = sys.argv[1:]
state = json.load(open(state_path))
text = open(log_path).read()
lines = [l for l in text.splitlines() if l.strip()]
failures = []
bad = [l for l in lines if not l.startswith("{")]
parsed = []
for l in lines:
    try:
        parsed.append(json.loads(l))
    except ValueError:
        bad.append(l)
if bad:
    failures.append(f"{len(bad)} log lines are not JSON, e.g. {bad[0][:200]!r}")
game = state["game"]
def mentions(record):
    return any(v == game for v in record.values()) or \
        any(isinstance(v, dict) and game in v.values() for v in record.values()) or \
        any(isinstance(s, dict) and game in s.values() for s in record.get("spans", []))
with_game = [r for r in parsed if mentions(r)]
print(f"{len(lines)} log lines, all JSON: {not bad}; {len(with_game)} name the game {game}")
print("  messages naming it:", sorted({r.get("message", "?") for r in with_game}))
if with_game:
    r = with_game[0]
    print("  e.g.", json.dumps({k: r[k] for k in r if k in ("level", "message", "game", "target")}))
if not with_game:
    failures.append("no log line names the game id")
for seat, token in state["tokens"].items():
    if token in text:
        failures.append(f"the seat token of {seat} appears in the log")
print(f"no seat token ({len(state['tokens'])} checked) in the log: "
      f"{not any(t in text for t in state['tokens'].values())}")
if password and password in text:
    failures.append("the database password appears in the log")
levels = {}
for r in parsed:
    levels[r.get("level", "?")] = levels.get(r.get("level", "?"), 0) + 1
print("levels:", levels)
errors = [r for r in parsed if r.get("level") == "ERROR"]
injected = [r for r in errors if marker in json.dumps(r)]
unexpected = [r for r in errors if r not in injected]
if unexpected:
    failures.append(f"{len(unexpected)} ERROR lines, e.g. {json.dumps(unexpected[0])[:300]}")
if injected:
    print(f"{len(injected)} ERROR lines for the injected database failure, e.g.",
          json.dumps({k: injected[0][k] for k in injected[0] if k in ("message", "game", "error")})[:300])
    if not all(mentions(r) for r in injected):
        failures.append("an ERROR line about the failed commit does not name the game")
if failures:
    sys.exit("FAIL: " + "; ".join(failures))
PY
done

step "all checks passed"
