#!/usr/bin/env bash
# Builds the project's Dockerfile where no image registry can be reached (CI, this kind of
# machine): first a stand-in for its base image (`node:22-slim`) made from this machine's `node`
# and `npm`, the shared libraries they need, a shell and the everyday tools, with this machine's CA
# bundle so `npm ci` trusts the TLS the way out re-signs; then the Dockerfile with that base
# (BASE_IMAGE) on the host's network, where the npm registry is reachable.
#   scripts/production-image.sh [tag]      (default clockwork:local)
# Docker's layer cache makes a second build of an unchanged tree take seconds; concurrent calls
# take turns. The stand-in base is remade only when this script changes. Where `node:22-slim` can
# be pulled, build as usual instead: `docker build -t clockwork .`.
set -euo pipefail
cd "$(dirname "$0")/.."

tag="${1:-clockwork:local}"
base="clockwork-node-base:local"

# One build at a time: `.ci/run` starts one in the background while the tests run, and
# tests/integration/production-image.test.ts calls this script too. A second call waits for the
# first here, then finds every layer cached.
mkdir -p .data
exec 9>.data/production-image.lock
flock 9

# shellcheck source=lib/rootfs.sh
source scripts/lib/rootfs.sh
recipe=$(rootfs_recipe scripts/production-image.sh)
made=$(docker image inspect --format '{{index .Config.Labels "clockwork.recipe"}}' "$base" 2>/dev/null || true)
if [ "$made" != "$recipe" ]; then
  root=$(mktemp -d)
  trap 'rm -rf "$root"' EXIT
  rootfs_skeleton
  mkdir -p "$root"/{usr/local/lib/node_modules,usr/local/etc,etc/ssl/certs,home/node,root}
  rootfs_node
  rootfs_libc
  npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
  cp -r "$npm_dir" "$root/usr/local/lib/node_modules/npm"
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  # What npm's scripts, the build and the Dockerfile's RUN lines call.
  rootfs_tools bash sh cat echo ls mkdir rm cp mv ln pwd env id chown chmod touch grep sed head tail \
    sort uniq find xargs tr wc dirname basename readlink uname true false test sleep
  # The TLS on the way out is re-signed: npm trusts this machine's bundle (node's own list does not
  # hold the re-signing CA).
  cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
  printf 'cafile=/etc/ssl/certs/ca-certificates.crt\nfund=false\naudit=false\nupdate-notifier=false\n' \
    >"$root/usr/local/etc/npmrc"
  # node:22-slim's users: root and node (1000), the one the Dockerfile runs as.
  printf 'root:x:0:0:root:/root:/bin/bash\nnode:x:1000:1000::/home/node:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >"$root/etc/passwd"
  printf 'root:x:0:\nnode:x:1000:\nnogroup:x:65534:\n' >"$root/etc/group"

  chown 1000:1000 "$root/home/node" # node's home is node's, as in node:22-slim
  tar -C "$root" -c . | docker import \
    --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
    --change "LABEL clockwork.recipe=$recipe" \
    - "$base" >/dev/null
  echo "built $base"
fi

# The classic builder: BuildKit would fetch its Dockerfile frontend from a registry.
DOCKER_BUILDKIT=0 docker build --network host --build-arg BASE_IMAGE="$base" -t "$tag" .
echo "built $tag"
