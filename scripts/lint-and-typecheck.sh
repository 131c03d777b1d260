#!/usr/bin/env bash
# `npm test`'s first step: `npm run lint` and `npm run typecheck` side by side (each is mostly one
# core's work; decision 0330). Each one's output is shown whole once both are done, lint's first;
# either failing fails this.
set -uo pipefail
cd "$(dirname "$0")/.."

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
npm run lint >"$out/lint" 2>&1 &
lint=$!
npm run typecheck >"$out/typecheck" 2>&1 &
typecheck=$!
wait "$lint"
lint_status=$?
wait "$typecheck"
typecheck_status=$?
cat "$out/lint" "$out/typecheck"
[ "$lint_status" = 0 ] && [ "$typecheck_status" = 0 ]
