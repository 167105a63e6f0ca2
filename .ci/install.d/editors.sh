#!/usr/bin/env bash
# Installs the editors the editor tests drive:
# - on the host (Debian bookworm): neovim 0.7.2 and tmux;
# - in a Debian sid chroot (newer C library than the host's): the newest
#   neovim and helix (hx), with neovim-plenary beside them.
# The chroot is cached outside the repo (ASKLS_SID_DIR, default
# /root/.cache/askls-ci/sid) so a second run on the same machine only checks
# it. Safe to run again.
set -euo pipefail

SID="${ASKLS_SID_DIR:-${HOME:-/root}/.cache/askls-ci/sid}"
export DEBIAN_FRONTEND=noninteractive

need_host=()
for p in neovim tmux debootstrap; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need_host+=("$p")
done
if [ ${#need_host[@]} -gt 0 ]; then
  echo "editors: apt-get install ${need_host[*]}"
  # Other parts install at the same time: wait for apt's locks.
  for try in 1 2 3 4 5 6 7 8 9 10; do
    apt-get -o DPkg::Lock::Timeout=300 update -qq &&
      apt-get -o DPkg::Lock::Timeout=300 install -y -qq "${need_host[@]}" >/dev/null && break
    [ "$try" = 10 ] && { echo "editors: apt-get failed" >&2; exit 1; }
    sleep 15
  done
fi

# The Debian mirror the host's own apt sources name (no other host is reachable).
mirror() {
  local m
  m=$(grep -rhoE '^(URIs:|deb) +https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null \
        | grep -oE 'https?://[^ ]+' | head -n1 || true)
  echo "${m:-http://deb.debian.org/debian}"
}

if [ -x "$SID/usr/bin/hx" ] && [ -x "$SID/usr/bin/nvim" ] && [ -f "$SID/.askls-ready" ]; then
  echo "editors: sid chroot ready at $SID"
else
  MIRROR=$(mirror)
  if [ ! -f "$SID/.askls-bootstrapped" ]; then
    echo "editors: debootstrap sid into $SID from $MIRROR (about a minute)"
    if grep -qF " $SID/" /proc/mounts; then
      echo "editors: something is mounted under $SID; not recreating it" >&2
      exit 1
    fi
    rm -rf "$SID"
    mkdir -p "$SID"
    debootstrap --variant=minbase sid "$SID" "$MIRROR" >"$SID.debootstrap.log" 2>&1 || {
      tail -n 30 "$SID.debootstrap.log" >&2; exit 1; }
    touch "$SID/.askls-bootstrapped"
  fi
  echo "deb $MIRROR sid main" >"$SID/etc/apt/sources.list"
  cp /etc/resolv.conf "$SID/etc/resolv.conf" 2>/dev/null || true
  # Mount what apt needs, and always unmount, also on failure.
  cleanup() {
    for m in dev/pts dev proc; do
      mountpoint -q "$SID/$m" && umount -l "$SID/$m" || true
    done
  }
  trap cleanup EXIT
  mountpoint -q "$SID/proc" || mount -t proc proc "$SID/proc"
  mountpoint -q "$SID/dev" || mount --bind /dev "$SID/dev"
  chroot "$SID" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    sh -c 'apt-get -o Acquire::Check-Valid-Until=false update -qq &&
           apt-get install -y -qq --no-install-recommends neovim hx neovim-plenary tmux ca-certificates locales-all >/dev/null'
  touch "$SID/.askls-ready"
  cleanup
  trap - EXIT
fi
chroot "$SID" nvim --version | head -n1
chroot "$SID" hx --version
nvim --version | head -n1
