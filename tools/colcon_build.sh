# Sourced (bash) by tools/setup.sh and tools/setup_ros.sh: one colcon build that is skipped when
# nothing it builds from changed (path, size and mtime of every source file, the package selection,
# the Python and the caller's extra key): a second `make demo` then starts in about a second.
# robozoo_colcon_build LABEL INSTALL_BASE LOGFILE KEY COLCON_COMMAND...
robozoo_colcon_build() {
  local label=$1 install_base=$2 logfile=$3 key=$4; shift 4
  local stamp="$install_base/.robozoo_build.sha256" want
  # MUJOCO_LOG.TXT: MuJoCo's warning log in a test's working directory (git ignores it too)
  want=$( { find src -type f ! -path '*/__pycache__/*' ! -name '*.pyc' ! -name MUJOCO_LOG.TXT \
    -printf '%P %s %T@\n' \
    | LC_ALL=C sort; echo "$key"; .venv/bin/python -VV; } | sha256sum | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -f "$install_base/setup.bash" ]; then
    return 0
  fi
  rm -f "$stamp"
  echo "setup: $label"
  mkdir -p "$(dirname "$logfile")"
  if ! "$@" --event-handlers console_cohesion+ summary- status- >"$logfile" 2>&1; then
    # what failed: the packages' non-empty stderr sections and colcon's verdicts
    awk '/^--- stderr: /{sec=$0; body=""; on=1; next} on && /^---$/{if (body ~ /[^[:space:]]/) \
         print sec "\n" body "---"; on=0; next} on {if ($0 !~ /byte-compiling is disabled/) \
         body = body $0 "\n"; next} /^(Failed|Aborted)|ERROR/' "$logfile" >&2
    echo "setup: $label failed; see $logfile" >&2
    return 1
  fi
  echo "$want" > "$stamp"
}
