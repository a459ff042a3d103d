"""Stand-in (import only), see tools/check_launch_upstream_shim/README.md."""
