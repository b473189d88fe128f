# Shared by the scripts that package the release binary (build-image, build-deb, build-archive): sets `dist`,
# `binary` (the first argument, else $dist/pushtally, built by scripts/build-release when missing), `version` (the
# VERSION file) and `commit` (the one the binary was stamped with), and refuses a binary stamped from another
# version. Source it from the repository's root.
dist=${PUSHTALLY_DIST:-.build/dist}
binary=${1:-$dist/pushtally}
[[ -x "$binary" ]] || scripts/build-release
version=$(cat VERSION)
stamp=$("$binary" --version)
if [[ "$stamp" != "$version (commit "* ]]; then
  echo "$(basename "$0"): $binary says '$stamp', not version $version: run scripts/build-release" >&2
  exit 1
fi
commit=$(sed -n 's/^[^ ]* (commit \([0-9a-f]*\).*/\1/p' <<<"$stamp")
# The commit's time, for the dates packages and archives carry: the same commit gives the same bytes.
epoch=$(git log -1 --format=%ct "$commit" 2>/dev/null || date +%s)
