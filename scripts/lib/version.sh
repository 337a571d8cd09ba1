# The version number a dppx binary carries: the first line of its `--version` (the second names
# the licence). Usage: source scripts/lib/version.sh; dppx_version PATH/TO/dppx
dppx_version() {
  "$1" --version | sed -n 1p
}
