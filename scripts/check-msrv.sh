#!/usr/bin/env bash
# The workspace's rust-version (Cargo.toml) must be what the locked dependencies really need:
# the highest `rust-version` among every package of Cargo.lock. When that toolchain is
# installed (rustup), the workspace is also checked with it (`cargo +VERSION check`).
set -euo pipefail
cd "$(dirname "$0")/.."
declared=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' Cargo.toml)
needed=$(cargo metadata --format-version 1 --locked | python3 -c '
import json, sys
# The dependencies only: the workspace packages carry the declared version itself.
packages = [p for p in json.load(sys.stdin)["packages"] if p.get("source")]
def key(v):
    parts = [int(x) for x in v.split(".")]
    return parts + [0] * (3 - len(parts))
versions = [p["rust_version"] for p in packages if p.get("rust_version")]
best = max(versions, key=key)
print(best, min(p["name"] for p in packages if p.get("rust_version") == best))
')
needed_version=${needed%% *}
trim() { echo "$1" | sed 's/\.0$//'; }
if [ "$(trim "$declared")" != "$(trim "$needed_version")" ]; then
  echo "check-msrv: Cargo.toml says rust-version $declared, the lock file needs $needed_version (${needed#* })" >&2
  exit 1
fi
echo "check-msrv: rust-version $declared is what the lock file needs (${needed#* })"
if command -v rustup >/dev/null 2>&1 && rustup toolchain list | grep -q "^$(trim "$declared")"; then
  cargo "+$(trim "$declared")" check --workspace --locked
  echo "check-msrv: the workspace builds with Rust $declared"
else
  echo "check-msrv: Rust $declared is not installed here; cargo refuses older toolchains by itself"
fi
