#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Print fslab's version: `git describe --tags --dirty` of this checkout
# (a leading v dropped); untagged, the VERSION file's number with the
# commit (0.1.0-gabc1234[-dirty]); outside a git checkout of fslab (a
# release tarball), the VERSION file alone.
cd "$(dirname "$0")/.." || exit 1
base=$(cat VERSION 2>/dev/null || echo unknown)
top=$(git rev-parse --show-toplevel 2>/dev/null)
if [ -n "$top" ] && [ "$(cd "$top" && pwd -P)" = "$(pwd -P)" ]; then
	if d=$(git describe --tags --dirty 2>/dev/null); then
		echo "${d#v}"
		exit 0
	fi
	if h=$(git describe --always --dirty 2>/dev/null); then
		echo "$base-g$h"
		exit 0
	fi
fi
echo "$base"
