#!/usr/bin/env bash
# The self-hosting files checked without a container engine, in seconds (the real run, on an
# engine, is scripts/container-check.sh):
#   1. docker-compose.yml is valid (`docker-compose config`, with .env.example as the .env),
#      refuses to start without a password, and has what a self-hoster relies on (Postgres 16
#      on a named volume, healthchecks, restart policies, the server waiting for a healthy
#      database, the cluster profile's wiring); deploy/haproxy.cfg passes `haproxy -c`;
#   2. .env.example documents every variable the server reads, with its real default, and the
#      server refuses the placeholder password of .env.example at start.
# Any mismatch fails (exit status 1).
#
# Usage: scripts/compose-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

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
trap 'rm -rf "$WORK"' EXIT

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
echo "building the release server (reused when up to date)"
timeout 3600 cargo build --release --quiet -p djambi-server --bin djambi-server ||
  fail "cargo build failed"
SERVER="${CARGO_TARGET_DIR:-$ROOT/target}/release/djambi-server"

# The placeholder password of .env.example is refused at start, with a clear message.
if placeholder_out=$(DATABASE_URL="postgres://djambi:$PLACEHOLDER@127.0.0.1:1/djambi" \
  timeout 20 "$SERVER" 2>&1); then
  fail "the server started with the placeholder password"
fi
echo "$placeholder_out" | grep -q "placeholder" ||
  fail "the refusal of the placeholder password does not say why: $placeholder_out"
echo "the placeholder password of .env.example is refused at start"

env -i "$SERVER" --help >"$WORK/help.txt"
"$PY" - "$WORK/config.yml" Dockerfile .env.example crates/djambi-server/src/config \
  "$WORK/help.txt" <<'PY'
import os, re, sys, urllib.parse, yaml

config_path, dockerfile, env_example, config_rs, help_txt = sys.argv[1:]
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

# server: built here, waits for a healthy db, restart policy, port 8080.
check("build" in server, "server is built from the Dockerfile")
dep = server.get("depends_on", {})
check(isinstance(dep, dict) and dep.get("db", {}).get("condition") == "service_healthy",
      "server waits for a healthy db")
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
    check("--healthcheck" in " ".join(node.get("healthcheck", {}).get("test", [])), f"node{i} has the server's healthcheck")
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

# The healthchecks are the server's own (the image has no curl).
for name in ("server", "node1"):
    test = " ".join(services.get(name, {}).get("healthcheck", {}).get("test", []))
    check("djambi-server --healthcheck" in test, f"{name}'s healthcheck is djambi-server --healthcheck")
active_cfg = [l for l in haproxy_cfg.splitlines() if not l.lstrip().startswith("#")]
check(any("parse-resolv-conf" in l for l in active_cfg) and not any("127.0.0.11" in l for l in active_cfg),
      "haproxy resolves the nodes with the container's resolver (Docker and podman alike)")

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

url = urllib.parse.urlsplit(env.get("DATABASE_URL", ""))
check(url.scheme == "postgres" and url.hostname == "db", "DATABASE_URL points at the db service")
check(env.get("DJAMBI_BIND") == "0.0.0.0:8080", "the server listens on 0.0.0.0:8080 in the container")
check(env.get("DJAMBI_LOG_FORMAT") == "json", "logs are JSON")
if failures:
    sys.exit(f"{len(failures)} check(s) failed")
PY

step "all checks passed (the containers themselves: scripts/container-check.sh)"
