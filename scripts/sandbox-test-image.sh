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

# The image carries the hash of the script that made it: a changed recipe (a tool added) remakes it.
recipe=$(sha256sum "$0" | cut -c1-16)
made=$(docker image inspect --format '{{index .Config.Labels "clockwork.recipe"}}' "$tag" 2>/dev/null || true)
if ! $force && [ "$made" = "$recipe" ]; then
  echo "$tag exists"
  exit 0
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
# Merged /usr, as Debian: /bin/bash and /usr/bin/bash are one file.
mkdir -p "$root"/{usr/local/bin,usr/bin,usr/lib,usr/lib64,usr/sbin,tmp,workspace,etc}
for dir in bin lib lib64 sbin; do ln -s "usr/$dir" "$root/$dir"; done
chmod 1777 "$root/tmp"

node_bin=$(readlink -f "$(command -v node)")
cp "$node_bin" "$root/usr/local/bin/node"

# Tools the tests' commands use; each copied with the libraries ldd lists for it.
tools=(bash sh cat echo ls mkdir rm cp mv pwd env id printf sleep head tail wc cut tr sort uniq
  sha256sum base64 grep sed touch chmod date true false test stat find xargs tee kill ps dd seq
  curl)
# A host path as it lies under merged /usr (/lib/x → /usr/lib/x), so no copy lands on a link.
merged() {
  case "$1" in
    /bin/* | /lib/* | /lib64/* | /sbin/*) echo "/usr$1" ;;
    *) echo "$1" ;;
  esac
}
copy_with_libs() {
  local bin=$1 target=$2
  cp -L "$bin" "$root$target"
  ldd "$bin" 2>/dev/null | grep -o '/[^ ]*' | while read -r lib; do
    [ -e "$lib" ] || continue
    lib=$(merged "$lib")
    mkdir -p "$root$(dirname "$lib")"
    cp -Ln "$lib" "$root$lib"
  done
}
copy_with_libs "$node_bin" /usr/local/bin/node
# The whole C library, as the real image's libc6 ships it (node links only part of it): native
# programs run in a container, such as the harness CLIs (Claude Code needs librt), find theirs.
libc_dir=$(dirname "$(ldd "$node_bin" | grep -o '/[^ ]*/libc\.so\.6')")
for lib in libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 libresolv.so.2 libutil.so.1 \
  libanl.so.1 libnss_files.so.2 libnss_dns.so.2; do
  [ -e "$libc_dir/$lib" ] || continue
  target=$(merged "$libc_dir/$lib")
  mkdir -p "$root$(dirname "$target")"
  cp -Ln "$libc_dir/$lib" "$root$target"
done
for tool in "${tools[@]}"; do
  path=$(type -P "$tool" 2>/dev/null) || continue
  target=$(merged "$path")
  mkdir -p "$root$(dirname "$target")"
  copy_with_libs "$path" "$target"
done
# ps reads /proc; the rest needs a passwd naming root and nobody for `id`.
printf 'root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n' >"$root/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$root/etc/group"

tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
  --change 'WORKDIR /workspace' \
  --change "LABEL clockwork.recipe=$recipe" \
  - "$tag" >/dev/null
echo "built $tag"
