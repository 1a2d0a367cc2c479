#!/usr/bin/env bash
# mypy cannot follow setuptools' package-dir mapping (preflight/ -> paperlint.preflight), so
# check a staging tree of symlinks laid out the way the wheel installs the package.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/paperlint"
for entry in "$root"/paperlint/*; do ln -s "$entry" "$stage/paperlint/$(basename "$entry")"; done
for sub in preflight blueprint reports; do ln -s "$root/$sub" "$stage/paperlint/$sub"; done
cd "$stage"
mypy --config-file "$root/pyproject.toml" -p paperlint "$@"
