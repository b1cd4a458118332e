#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/check-includes.sh passes on the tree and fails on a planted
# upward include and on a planted include circle (its --self-test).
. "$(dirname "$0")/lib.sh"

check "the tree keeps the layer order of scripts/layers.txt" "$TOP/scripts/check-includes.sh"
check "an upward include and a circle are caught" "$TOP/scripts/check-includes.sh" --self-test
finish
