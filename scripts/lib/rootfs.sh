# shellcheck shell=bash
# Shared by scripts/sandbox-test-image.sh and scripts/production-image.sh: a small root filesystem
# made from this machine's own binaries, for `docker import` where no registry can be reached.
# Source it, set `root` to an empty folder, then call the functions below.

# The skeleton: merged /usr as in Debian (/bin/sh and /usr/bin/sh are one file), a sticky /tmp.
rootfs_skeleton() {
  mkdir -p "$root"/{usr/local/bin,usr/bin,usr/lib,usr/lib64,usr/sbin,tmp,etc}
  for dir in bin lib lib64 sbin; do ln -s "usr/$dir" "$root/$dir"; done
  chmod 1777 "$root/tmp"
}

# A host path as it lies under merged /usr (/lib/x → /usr/lib/x), so no copy lands on a link.
rootfs_merged() {
  case "$1" in
    /bin/* | /lib/* | /lib64/* | /sbin/*) echo "/usr$1" ;;
    *) echo "$1" ;;
  esac
}

# Copies one file to the same place under $root, creating its folder.
rootfs_copy() {
  local target
  target=$(rootfs_merged "$1")
  mkdir -p "$root$(dirname "$target")"
  cp -Ln "$1" "$root$target"
}

# Copies a binary to `target` under $root with the shared libraries ldd lists for it.
rootfs_binary() {
  local bin=$1 target=$2 lib
  mkdir -p "$root$(dirname "$target")"
  cp -L "$bin" "$root$target"
  ldd "$bin" 2>/dev/null | grep -o '/[^ ]*' | while read -r lib; do
    if [ -e "$lib" ]; then rootfs_copy "$lib"; fi
  done
}

# This machine's node at /usr/local/bin/node, as the node images have it.
rootfs_node() {
  rootfs_binary "$(readlink -f "$(command -v node)")" /usr/local/bin/node
}

# The whole C library, as Debian's libc6 ships it (node links only part of it): native programs run
# in a container (the harness CLIs: Claude Code needs librt) and native modules find theirs.
rootfs_libc() {
  local libc_dir lib
  libc_dir=$(dirname "$(ldd "$(readlink -f "$(command -v node)")" | grep -o '/[^ ]*/libc\.so\.6')")
  for lib in libc.so.6 libm.so.6 libdl.so.2 libpthread.so.0 librt.so.1 libresolv.so.2 libutil.so.1 \
    libanl.so.1 libnss_files.so.2 libnss_dns.so.2; do
    if [ -e "$libc_dir/$lib" ]; then rootfs_copy "$libc_dir/$lib"; fi
  done
}

# Each named tool found on this machine, at its own path; those it lacks are left out.
rootfs_tools() {
  local tool path
  for tool in "$@"; do
    path=$(type -P "$tool" 2>/dev/null) || continue
    rootfs_binary "$path" "$(rootfs_merged "$path")"
  done
}

# The image's recipe: a hash of the calling script and this file, so a changed recipe remakes it.
rootfs_recipe() {
  cat "$1" "${BASH_SOURCE[0]}" | sha256sum | cut -c1-16
}
