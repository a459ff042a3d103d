# Sourced (bash) by tools/setup_ros.sh and tools/setup_gz.sh: the shared test builds' tarballs
# (../shared/ros2, ../shared/gz) are unpacked only when their SHA-256 matches SHA256SUMS beside
# them, and their Debian run-time packages are installed once.

# robozoo_verified_sha TARBALL: prints its SHA-256, or one line and a non-zero status.
robozoo_verified_sha() {
  local tarball=$1 sums want have
  sums="$(dirname "$tarball")/SHA256SUMS"
  want=$(awk -v f="$(basename "$tarball")" '$2 == f || $2 == "*" f {print $1}' "$sums" 2>/dev/null)
  have=$(sha256sum "$tarball" | cut -d' ' -f1)
  if [ -z "$want" ] || [ "$have" != "$want" ]; then
    echo "setup: $tarball: checksum $have does not match ${want:-nothing} in $sums; not unpacked" >&2
    return 1
  fi
  echo "$have"
}

# robozoo_apt_install WHAT PACKAGE...: installs those not installed yet, saying so in one line.
robozoo_apt_install() {
  local what=$1 p need=() sudo_cmd=""
  shift
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || need+=("$p"); done
  [ ${#need[@]} -gt 0 ] || return 0
  echo "setup: installing ${#need[@]} Debian package(s) for $what"
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends \
    "${need[@]}" >/dev/null
}
