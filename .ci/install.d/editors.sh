#!/usr/bin/env bash
# Installs the editors the editor tests drive:
# - on the host (Debian bookworm): neovim 0.7.2 and tmux;
# - in a Debian sid chroot (newer C library than the host's): the newest
#   neovim and helix (hx); with ASKLS_EDITORS_TRIXIE=1 also a trixie one
#   (neovim 0.10, helix 25.01).
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
# python3 runs the fake Ollama of the editor tests.
command -v python3 >/dev/null || need_host+=(python3)
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

# make_chroot SUITE DIR: a minbase Debian SUITE at DIR with neovim and hx.
make_chroot() {
  local suite=$1 dir=$2 mirror m
  if [ -x "$dir/usr/bin/hx" ] && [ -x "$dir/usr/bin/nvim" ] && [ -f "$dir/.askls-ready" ]; then
    echo "editors: $suite chroot ready at $dir"
    return 0
  fi
  mirror=$(mirror)
  if [ ! -f "$dir/.askls-bootstrapped" ]; then
    echo "editors: debootstrap $suite into $dir from $mirror (about a minute)"
    if grep -qF " $dir/" /proc/mounts; then
      echo "editors: something is mounted under $dir; not recreating it" >&2
      return 1
    fi
    rm -rf "$dir"
    mkdir -p "$dir"
    debootstrap --variant=minbase "$suite" "$dir" "$mirror" >"$dir.debootstrap.log" 2>&1 || {
      tail -n 30 "$dir.debootstrap.log" >&2
      return 1
    }
    touch "$dir/.askls-bootstrapped"
  fi
  echo "deb $mirror $suite main" >"$dir/etc/apt/sources.list"
  cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
  # Mount what apt needs; unmount what was mounted here, also on failure.
  local mounted=()
  mountpoint -q "$dir/proc" || { mount -t proc proc "$dir/proc" && mounted+=("$dir/proc"); }
  mountpoint -q "$dir/dev" || { mount --bind /dev "$dir/dev" && mounted+=("$dir/dev"); }
  local status=0
  chroot "$dir" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
    sh -c 'apt-get -o Acquire::Check-Valid-Until=false update -qq &&
           apt-get install -y -qq --no-install-recommends neovim hx >/dev/null' || status=$?
  for m in "${mounted[@]}"; do umount "$m" || umount -l "$m" || true; done
  [ "$status" = 0 ] || return "$status"
  touch "$dir/.askls-ready"
  echo "editors: $suite: $(chroot "$dir" nvim --version | head -n1), $(chroot "$dir" hx --version)"
}

# sid: the newest Neovim and Helix (required by the tests).
make_chroot sid "$SID"
# trixie: Neovim 0.10 and Helix 25.01, only when asked for (about 4 more
# minutes on a fresh machine); the tests use it when it is there.
if [ "${ASKLS_EDITORS_TRIXIE:-0}" = 1 ]; then
  make_chroot trixie "${ASKLS_TRIXIE_DIR:-${HOME:-/root}/.cache/askls-ci/trixie}"
fi
chroot "$SID" nvim --version | head -n1
chroot "$SID" hx --version
nvim --version | head -n1
