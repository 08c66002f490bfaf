#!/usr/bin/env bash
# Rebuilds bot/web/static/vendor/discord-embedded-app-sdk.mjs (+ its licences) and
# tests/browser/vendor/axe.min.js (+ licence) from the versions pinned in package-lock.json.
# Needs node and npm; only whoever bumps a version runs it, and commits what it writes.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund
node build.mjs
