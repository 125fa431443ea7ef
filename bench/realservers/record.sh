#!/usr/bin/env bash
# Re-records bench/realservers/corpus: installs the pinned client and
# servers (npm ci; the only step that needs the network), then runs
# record.mjs, which starts PostgreSQL and Redis from Debian's packages on
# loopback in a temporary directory, records every server and stops them.
# Needs node and npm, git, postgresql and redis-server (apt-get install
# postgresql redis-server). Run from anywhere; then `go run ./bench/wire-format`.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
node record.mjs
