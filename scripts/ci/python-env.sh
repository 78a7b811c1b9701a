#!/usr/bin/env bash
# Makes the tests' Python environment: a virtual environment of its own in .venv/ (never the machine's site-packages)
# holding exactly TestVectors/generator/requirements.txt, checked with `pip check`. Run from anywhere; idempotent (a
# venv whose installed set already equals the file is left alone). Then `. .venv/bin/activate`.
set -euo pipefail
case "${1:-}" in
    -h|--help) sed -n '2,4p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    "") ;;
    *) echo "python-env.sh: unknown argument '$1' (it takes none; --help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/../.."
requirements=TestVectors/generator/requirements.txt
if [ ! -x .venv/bin/python3 ]; then
    python3 -m venv .venv
fi
stamp=.venv/.requirements.sha256
wanted=$(sha256sum "$requirements" | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    .venv/bin/python3 -m pip install -q --disable-pip-version-check --no-deps -r "$requirements"
    echo "$wanted" > "$stamp"
fi
.venv/bin/python3 -m pip check --disable-pip-version-check >/dev/null
