#!/usr/bin/env bash
# Self-hosting, run for real on a container engine: the image is built from the checkout and the
# compose file brought up exactly as docs/SELF_HOSTING.md tells a self-hoster, then
#   single   (db + server): a game over WebSocket through the published port (four seats and a
#            spectator, each turn chosen from the `legal` message); `docker compose restart
#            server` mid-turn (every socket told `restarting`, closed with a reason, nothing
#            acknowledged lost, play goes on); `docker compose kill -s SIGKILL server` mid-turn,
#            then `up -d` (the same); a database failure answered `internal`; `down` then
#            `up -d` (the named volume keeps the game); the backup and restore of
#            SELF_HOSTING.md §4 (a dump, a fresh volume, the restore: the same record); the
#            logs are JSON, name the game, never show a seat token or the database password;
#   cluster  (db, NATS, three nodes, HAProxy): healthy, a game through `lb`, the node that owns
#            it SIGKILLed mid-turn: no acknowledged move lost, the game moves on within the
#            lease time, the spectator sees every event; the node comes back; then down.
# Every step is bounded in time; the containers, volumes and networks it made are removed at
# the end, also on failure (the images stay: they are the build cache).
#
# Usage: scripts/container-check.sh [single|cluster|all]       (default: all)
# Needs a Docker engine (or podman's Docker API: DOCKER_HOST=unix:///run/podman/podman.sock,
# as ../shared/tools/containers.sh sets up) and Compose (`docker compose` or `docker-compose`
# 1.28+). Builds the smoke client with cargo. Talks only to 127.0.0.1.
# Env: DJAMBI_CHECK_PROJECT (compose project name, default djambicheck).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WHAT=${1:-all}
case "$WHAT" in single | cluster | all) ;; *)
  echo "usage: $0 [single|cluster|all]" >&2
  exit 2
  ;;
esac
export COMPOSE_PROJECT_NAME=${DJAMBI_CHECK_PROJECT:-djambicheck}

T0=$(date +%s)
TIMES=()
STEP_NAME=""
STEP_START=0
step() {
  end_step
  STEP_NAME=$*
  STEP_START=$(date +%s)
  printf '\n=== container-check: %s ===\n' "$*"
}
end_step() {
  if [ -n "$STEP_NAME" ]; then
    TIMES+=("$(printf '%4d s  %s' $(($(date +%s) - STEP_START)) "$STEP_NAME")")
  fi
  STEP_NAME=""
}
fail() {
  printf '\ncontainer-check: FAIL: %s\n' "$*" >&2
  exit 1
}

# --- the engine and Compose ----------------------------------------------------------------------
command -v docker >/dev/null 2>&1 || fail "no docker client (or podman's Docker API with a docker client)"
timeout 30 docker version >/dev/null 2>&1 ||
  fail "the container engine does not answer (DOCKER_HOST=${DOCKER_HOST:-unset}); here: ../shared/tools/containers.sh up"
if timeout 30 docker compose version >/dev/null 2>&1; then
  COMPOSE=(docker compose)
elif command -v docker-compose >/dev/null 2>&1; then
  COMPOSE=(docker-compose)
else
  fail "neither \`docker compose\` nor docker-compose is installed"
fi
ENGINE=$(timeout 30 docker version --format '{{.Server.Version}} {{range .Server.Components}}{{.Name}} {{end}}' 2>/dev/null || echo "?")
echo "engine: $ENGINE; compose: ${COMPOSE[*]} $("${COMPOSE[@]}" version --short 2>/dev/null || true)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/djambi-container-check.XXXXXX")
PROJECT="$WORK/project"
mkdir -p "$PROJECT"

# compose ARGS…: Compose in the project copy, bounded in time (a build takes longer: BUILD).
compose() { (cd "$PROJECT" && timeout "${LIMIT:-300}" "${COMPOSE[@]}" "$@"); }
COMPOSE_CMD="cd $PROJECT && ${COMPOSE[*]}"

cleanup() {
  local status=$?
  trap - EXIT INT TERM
  end_step
  if [ "$status" -ne 0 ]; then
    echo "--- containers at the failure ---" >&2
    (cd "$PROJECT" && COMPOSE_PROFILES=single,cluster timeout 60 "${COMPOSE[@]}" ps) >&2 || true
    (cd "$PROJECT" && COMPOSE_PROFILES=single,cluster timeout 60 "${COMPOSE[@]}" logs --no-color --tail 30) >&2 || true
  fi
  echo "removing the project's containers, volumes and networks"
  (cd "$PROJECT" && COMPOSE_PROFILES=single,cluster timeout 120 "${COMPOSE[@]}" down -v --remove-orphans -t 5) >/dev/null 2>&1 || true
  rm -rf "$WORK"
  if [ "${#TIMES[@]}" -gt 0 ]; then
    echo
    echo "container-check: time per step"
    printf '  %s\n' "${TIMES[@]}"
    echo "  total $(($(date +%s) - T0)) s"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the checkout, as a self-hoster's clone --------------------------------------------------------
step "the project: a copy of the checkout's files (tracked, and new ones git does not ignore)"
git ls-files -z --cached --others --exclude-standard |
  tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$PROJECT"
echo "$(find "$PROJECT" -type f | wc -l) files in $PROJECT"
# Leftovers of an earlier run that was killed before its cleanup.
(cd "$PROJECT" && COMPOSE_PROFILES=single,cluster timeout 120 "${COMPOSE[@]}" down -v --remove-orphans -t 5) >/dev/null 2>&1 || true

echo "building the smoke client (reused when up to date)"
timeout 3600 cargo build --release --quiet -p djambi-server --example smoke || fail "cargo build failed"
SMOKE="${CARGO_TARGET_DIR:-$ROOT/target}/release/examples/smoke"
smoke() { timeout 240 "$SMOKE" "$@"; }

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL="http://127.0.0.1:$PORT"

# The settings, as the README and docs/SELF_HOSTING.md §1 say: .env from .env.example with a
# real password and the public address (published on loopback only, on a free port).
PASSWORD=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
cp "$PROJECT/.env.example" "$PROJECT/.env"
sed -i -e "s/^POSTGRES_PASSWORD=.*/POSTGRES_PASSWORD=$PASSWORD/" \
  -e "s|^DJAMBI_PUBLISH=.*|DJAMBI_PUBLISH=127.0.0.1:$PORT|" \
  -e "s|^DJAMBI_PUBLIC_URL=.*|DJAMBI_PUBLIC_URL=$URL|" "$PROJECT/.env"
grep -q "^POSTGRES_PASSWORD=$PASSWORD$" "$PROJECT/.env" || fail ".env.example has no POSTGRES_PASSWORD line"
DB_USER=$(sed -n 's/^POSTGRES_USER=//p' "$PROJECT/.env")
DB_NAME=$(sed -n 's/^POSTGRES_DB=//p' "$PROJECT/.env")

container() { compose ps -q "$1" | head -n 1; }
health() {
  local id
  id=$(container "$1")
  [ -n "$id" ] || {
    echo missing
    return
  }
  docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}' "$id" 2>/dev/null || echo gone
}
# wait_healthy LIMIT SERVICE…: every service's healthcheck passes within LIMIT seconds.
wait_healthy() {
  local limit=$1 started
  shift
  started=$(date +%s)
  while :; do
    local all=1 states=()
    for s in "$@"; do
      local h
      h=$(health "$s")
      states+=("$s=$h")
      [ "$h" = healthy ] || all=0
    done
    if [ "$all" = 1 ]; then
      echo "healthy after $(($(date +%s) - started)) s: ${states[*]}"
      return 0
    fi
    [ $(($(date +%s) - started)) -lt "$limit" ] || fail "not healthy within $limit s: ${states[*]}"
    sleep 1
  done
}
# wait_answers LIMIT: the published port answers /readyz with 200.
wait_answers() {
  local limit=$1 started
  started=$(date +%s)
  until curl -fsS -o /dev/null --max-time 2 "$URL/readyz" 2>/dev/null; do
    [ $(($(date +%s) - started)) -lt "$limit" ] || fail "$URL/readyz did not answer 200 within $limit s"
    sleep 0.5
  done
  echo "$URL/readyz answers 200 ($(($(date +%s) - started)) s)"
}
psql_db() { compose exec -T db psql -U "$DB_USER" -d "$DB_NAME" -v ON_ERROR_STOP=1 -qAt "$@"; }
LOGS="$WORK/logs"
mkdir -p "$LOGS"
# save_logs NAME SERVICE…: the services' logs so far, exactly as the containers wrote them
# (containers are replaced by down/up, so each is saved before).
save_logs() {
  local name=$1 s id
  shift
  : >"$LOGS/$name.log"
  for s in "$@"; do
    id=$(container "$s")
    [ -n "$id" ] && timeout 60 docker logs "$id" >>"$LOGS/$name.log" 2>&1
  done
  return 0
}

# --- the image ----------------------------------------------------------------------------------
step "build the image (docker compose build: the Dockerfile, cargo-chef's dependency layer)"
build_start=$(date +%s)
LIMIT=3000 compose build server
echo "image built in $(($(date +%s) - build_start)) s"
size=$(docker image inspect djambi-online:latest --format '{{.Size}}')
base=$(docker image inspect debian:bookworm-slim --format '{{.Size}}' 2>/dev/null || echo 0)
ours=$(((size - base) / 1000000))
echo "image djambi-online:latest: $((size / 1000000)) MB, of which our layers $ours MB over debian:bookworm-slim ($((base / 1000000)) MB here)"
docker history --format '{{.Size}}\t{{.CreatedBy}}' djambi-online:latest 2>/dev/null | head -n 8 | cut -c1-140 || true
[ "$ours" -le 40 ] || fail "our layers are $ours MB (goal: at most 40 MB)"

# --- profile single ----------------------------------------------------------------------------
if [ "$WHAT" = single ] || [ "$WHAT" = all ]; then
  STATE="$WORK/single.json"

  step "single: docker compose up -d; db and server healthy"
  compose up -d
  wait_healthy 180 db server
  wait_answers 60
  wait_answers 60
  compose ps

  step "single: a game over WebSocket through the published port (4 seats, a spectator)"
  smoke play --url "$URL" --state "$STATE" --new --turns 6 --metrics-out "$WORK/metrics.txt"
  GAME=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["game"])' "$STATE")

  step "single: docker compose restart server in the middle of a turn"
  smoke play --url "$URL" --state "$STATE" --turns 2 --signal TERM \
    --signal-cmd "$COMPOSE_CMD restart server" --close-wait-secs 60
  wait_healthy 120 server
  wait_answers 60
  smoke verify --url "$URL" --state "$STATE" --allow-unacked 0
  smoke play --url "$URL" --state "$STATE" --turns 3

  step "single: docker compose kill -s SIGKILL server in the middle of a turn, then up -d"
  smoke play --url "$URL" --state "$STATE" --turns 2 --signal KILL \
    --signal-cmd "$COMPOSE_CMD kill -s SIGKILL server" --close-wait-secs 30
  compose up -d
  wait_healthy 120 server
  wait_answers 60
  smoke verify --url "$URL" --state "$STATE" --allow-unacked 1
  smoke play --url "$URL" --state "$STATE" --turns 2

  step "single: a database failure is answered internal, without the database's text"
  MARKER="container-check-injected-failure"
  psql_db <<SQL
CREATE FUNCTION container_check_fail() RETURNS trigger LANGUAGE plpgsql AS
  \$\$ BEGIN RAISE EXCEPTION '$MARKER'; END \$\$;
CREATE TRIGGER container_check_fail BEFORE INSERT ON events
  FOR EACH ROW EXECUTE FUNCTION container_check_fail();
SQL
  smoke play --url "$URL" --state "$STATE" --turns 0 --expect-db-failure "$MARKER"
  psql_db -c 'DROP TRIGGER container_check_fail ON events' -c 'DROP FUNCTION container_check_fail()'
  smoke verify --url "$URL" --state "$STATE" --allow-unacked 0
  smoke play --url "$URL" --state "$STATE" --turns 1
  save_logs single-1 server

  step "single: docker compose down, then up -d: the named volume keeps the game"
  compose down
  compose up -d
  wait_healthy 180 db server
  wait_answers 60
  smoke verify --url "$URL" --state "$STATE" --allow-unacked 0
  smoke play --url "$URL" --state "$STATE" --turns 2

  step "single: backup and restore as docs/SELF_HOSTING.md §4 says"
  curl -fsS --max-time 10 "$URL/api/games/$GAME/record" -o "$WORK/record-before.json"
  DUMP="$WORK/djambi-$(date +%F).dump"
  # §4 "A consistent dump while the server runs":
  (cd "$PROJECT" && timeout 120 "${COMPOSE[@]}" exec -T db sh -c 'pg_dump -U "$POSTGRES_USER" -d "$POSTGRES_DB" --format=custom') >"$DUMP"
  echo "dump: $(wc -c <"$DUMP") bytes"
  save_logs single-2 server
  # A fresh volume: the game must be gone before the restore.
  compose down -v
  compose up -d
  wait_healthy 180 db server
  wait_answers 60
  status=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$URL/api/games/$GAME")
  [ "$status" = 404 ] || fail "on a fresh volume the game answers $status, not 404"
  echo "a fresh volume: the game is not there (404)"
  # §4 "Restore (into the same or a new installation)":
  compose stop server
  (cd "$PROJECT" && timeout 120 "${COMPOSE[@]}" exec -T db sh -c 'pg_restore -U "$POSTGRES_USER" -d "$POSTGRES_DB" --clean --if-exists') <"$DUMP"
  compose start server
  wait_healthy 120 server
  wait_answers 60
  curl -fsS --max-time 10 "$URL/api/games/$GAME/record" -o "$WORK/record-after.json"
  cmp -s "$WORK/record-before.json" "$WORK/record-after.json" ||
    fail "the restored game's record differs from the one before the backup"
  echo "restored: the game's record is byte for byte the one before the backup ($(wc -c <"$WORK/record-after.json") bytes)"
  smoke verify --url "$URL" --state "$STATE" --allow-unacked 0
  smoke play --url "$URL" --state "$STATE" --turns 2
  save_logs single-3 server

  step "single: what the server said: JSON logs naming the game, no token, no password, a true address"
  python3 - "$STATE" "$PASSWORD" "$MARKER" "$URL" "$LOGS"/single-*.log <<'PY'
import json, re, sys
state_path, password, marker, url, *logs = sys.argv[1:]
state = json.load(open(state_path))
game = state["game"]
failures = []
lines = []
for path in logs:
    lines += [l for l in open(path, errors="replace").read().splitlines() if l.strip()]
parsed, bad = [], []
for l in lines:
    try:
        parsed.append(json.loads(l))
    except ValueError:
        bad.append(l)
text = "\n".join(lines)
print(f"{len(lines)} log lines from {len(logs)} server containers; not JSON: {len(bad)}")
if bad:
    failures.append(f"{len(bad)} log lines are not JSON, e.g. {bad[0][:200]!r}")
def mentions(r):
    return game in json.dumps(r)
with_game = [r for r in parsed if mentions(r)]
print(f"{len(with_game)} lines name the game {game}: {sorted({r.get('message', '?') for r in with_game})[:8]}")
if not with_game:
    failures.append("no log line names the game id")
for seat, token in state["tokens"].items():
    if token in text:
        failures.append(f"the seat token of {seat} appears in the logs")
if password in text:
    failures.append("the database password appears in the logs")
print(f"no seat token ({len(state['tokens'])} checked), no database password: "
      f"{not any(t in text for t in state['tokens'].values()) and password not in text}")
messages = [r.get("message", "") for r in parsed]
announced = [m for m in messages if url in m]
print(f"the address announced: {announced[:1]}")
if not announced:
    failures.append(f"the server never said players open {url}")
guessed = [m for m in messages if "local network" in m or re.search(r"https?://(10|172|192\.168)\.", m)]
if guessed:
    failures.append(f"the server guessed a container address: {guessed[0]}")
errors = [r for r in parsed if r.get("level") == "ERROR"]
unexpected = [r for r in errors if marker not in json.dumps(r)]
if unexpected:
    failures.append(f"{len(unexpected)} ERROR lines, e.g. {json.dumps(unexpected[0])[:300]}")
print(f"ERROR lines: {len(errors)}, all about the injected database failure: {not unexpected}")
if failures:
    sys.exit("FAIL: " + "; ".join(failures))
PY

  step "single: docker compose down -v"
  compose down -v
fi

# --- profile cluster ---------------------------------------------------------------------------
if [ "$WHAT" = cluster ] || [ "$WHAT" = all ]; then
  STATE="$WORK/cluster.json"
  step "cluster: docker compose --profile cluster up -d (db, nats, node1-3, lb)"
  # What this engine cannot grant (not a bug of ours): no container may raise its open-file
  # limit above the machine's hard limit, so a test-only override lowers the balancer's, and
  # HAProxy's maxconn with it (each connection takes two descriptors).
  hard=$(ulimit -Hn)
  procs=4096
  override=""
  if [ "$hard" != unlimited ] && [ "$hard" -lt 65536 ]; then
    maxconn=$(((hard - 1000) / 2))
    mkdir -p "$PROJECT/ci"
    sed "s/^\(  maxconn\) 20000$/\1 $maxconn/" "$PROJECT/deploy/haproxy.cfg" >"$PROJECT/ci/haproxy.cfg"
    grep -q "maxconn $maxconn" "$PROJECT/ci/haproxy.cfg" || fail "deploy/haproxy.cfg has no 'maxconn 20000' line to lower"
    cat >"$PROJECT/ci/limits.yml" <<YAML
# container-check only: this machine's hard open-file limit is $hard; $procs processes
# (an engine that is given any ulimit sets them all, so the process limit is named too).
services:
  lb:
    ulimits:
      nofile: $hard
      nproc: $procs
    volumes:
      - ./ci/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro
YAML
    override="docker-compose.yml:ci/limits.yml"
    echo "test-only override: lb nofile $hard (not 65536), nproc $procs, HAProxy maxconn $maxconn (not 20000)"
  fi
  COMPOSE_FILE=${override:-docker-compose.yml} compose --profile cluster up -d
  export COMPOSE_FILE=${override:-docker-compose.yml}
  wait_healthy 240 db nats node1 node2 node3
  wait_answers 60
  if [ -n "$(container server)" ]; then
    fail "--profile cluster also started the single server"
  fi
  compose --profile cluster ps

  step "cluster: a game through lb (4 seats and a spectator)"
  smoke play --url "$URL" --state "$STATE" --new --turns 4
  GAME=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["game"])' "$STATE")
  owner=$(psql_db -c "SELECT node FROM game_owners WHERE game_id = '$GAME'")
  victim=$(echo "$owner" | grep -o '^node[123]' || true)
  [ -n "$victim" ] || fail "the game's owner is '$owner', not one of node1-3"
  lease=$(sed -n 's/^#\?DJAMBI_LEASE_SECS=//p' "$PROJECT/.env" | head -n 1)
  echo "the game $GAME is owned by $owner: killing $victim (lease ${lease:-5} s)"

  step "cluster: the game's owner SIGKILLed mid-turn; the game moves on"
  smoke failover --url "$URL" --state "$STATE" --turns-before 2 --turns-after 3 \
    --kill-cmd "$COMPOSE_CMD kill -s SIGKILL $victim" --max-recovery-secs $((${lease:-5} * 4 + 10))
  new_owner=$(psql_db -c "SELECT node FROM game_owners WHERE game_id = '$GAME'")
  echo "the game is now owned by $new_owner"
  case "$new_owner" in "$victim"-* | "$victim") fail "the killed node still owns the game" ;; esac

  step "cluster: the killed node comes back"
  compose --profile cluster up -d "$victim"
  wait_healthy 120 "$victim"
  smoke verify --url "$URL" --state "$STATE" --allow-unacked 0
  smoke play --url "$URL" --state "$STATE" --turns 2

  step "cluster: docker compose --profile cluster down -v"
  compose --profile cluster down -v
fi

step "all checks passed"
end_step
