#!/usr/bin/env bash
# Installs the Foxglove WebSocket protocol's published JS client into <ws>/.npm-foxglove for the
# live-view tests (src/zoo_live/test/ws_protocol_client.mjs). Idempotent: a second run with the
# same pins does nothing. Pins: @foxglove/ws-protocol 0.8.0 (npm, latest on 2026-12-07), ws 8.23.1.
set -euo pipefail
WS="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="$WS/.npm-foxglove"
PINS="@foxglove/ws-protocol@0.8.0 ws@8.23.1"
if [ -f "$DIR/.pins" ] && [ "$(cat "$DIR/.pins")" = "$PINS" ] \
   && [ -d "$DIR/node_modules/@foxglove/ws-protocol" ]; then
  exit 0
fi
mkdir -p "$DIR"
# shellcheck disable=SC2086
npm install --prefix "$DIR" --no-audit --no-fund --silent $PINS
echo "$PINS" > "$DIR/.pins"
