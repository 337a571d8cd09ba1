# Where scripts/install puts each file under a PREFIX; scripts/uninstall, scripts/package-deb and
# scripts/test-package read the same names. Usage: source scripts/lib/layout.sh; layout PREFIX.

# What scripts/build-release makes and scripts/install copies from, relative to the repository.
release_dir=.build/release-package

layout() {
  local prefix="${1%/}"
  bin_dir="$prefix/bin"
  templates_dir="$prefix/share/dppx/Templates"
  share_dir="$prefix/share/dppx"
  man_dir="$prefix/share/man/man1"
  bash_completion_dir="$prefix/share/bash-completion/completions"
  if [[ "$prefix" == /usr ]]; then
    zsh_completion_dir="$prefix/share/zsh/vendor-completions"
  else
    zsh_completion_dir="$prefix/share/zsh/site-functions"
  fi
  fish_completion_dir="$prefix/share/fish/vendor_completions.d"
  installed_files=(
    "$bin_dir/dppx"
    "$man_dir/dppx.1"
    "$bash_completion_dir/dppx"
    "$zsh_completion_dir/_dppx"
    "$fish_completion_dir/dppx.fish"
  )
}
