#!/usr/bin/env bash
# Builds a small local image that stands in for the sandbox image (SANDBOX_DOCKER_IMAGE,
# node:22-slim by default) where no registry can be reached: this machine's `node`, the shared
# libraries it needs, bash and the everyday command-line tools, imported as a root filesystem.
# The Docker tests use it; developers can too: `scripts/sandbox-test-image.sh [tag]`.
# Does nothing when the tag exists already, made by this version of the script, unless --force.
set -euo pipefail

tag="clockwork-test-sandbox:latest"
force=false
for arg in "$@"; do
  case "$arg" in
    --force) force=true ;;
    *) tag="$arg" ;;
  esac
done

# shellcheck source=lib/rootfs.sh
source "$(dirname "$0")/lib/rootfs.sh"

# The image carries the hash of the recipe that made it: a changed recipe (a tool added) remakes it.
recipe=$(rootfs_recipe "$0")
made=$(docker image inspect --format '{{index .Config.Labels "clockwork.recipe"}}' "$tag" 2>/dev/null || true)
if ! $force && [ "$made" = "$recipe" ]; then
  echo "$tag exists"
  exit 0
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
rootfs_skeleton
mkdir -p "$root/workspace"
rootfs_node
rootfs_libc
# Tools the tests' commands use.
rootfs_tools bash sh cat echo ls mkdir rm cp mv pwd env id printf sleep head tail wc cut tr sort uniq \
  sha256sum base64 grep sed touch chmod date true false test stat find xargs tee kill ps dd seq curl
# ps reads /proc; the rest needs a passwd naming root and nobody for `id`.
printf 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"

tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
  --change 'WORKDIR /workspace' \
  --change "LABEL clockwork.recipe=$recipe" \
  - "$tag" >/dev/null
echo "built $tag"
