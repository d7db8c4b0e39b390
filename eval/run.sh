#!/usr/bin/env bash
# run.sh: run retrylint on the evaluation's modules and score it against
# the labels.
#
# Usage, from anywhere:  eval/run.sh [-bin RETRYLINT] [-out DIR] [LABELS.tsv...]
#
# It builds retrylint from this checkout (or uses the binary -bin names,
# to score another commit), runs it with -json -test=false from this
# folder on the packages of packages.txt (the modules are pinned by
# go.mod here, fetched through the Go module proxy), and prints the score
# of each labels file (default: labels/*.tsv) and of all together, with
# every miss, false positive and unlabeled diagnostic. The JSON output
# and the score are kept in DIR (default: a new folder under $TMPDIR).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
bin="" out=""
while [ $# -gt 0 ]; do
	case "$1" in
	-bin) bin=$2; shift 2 ;;
	-out) out=$2; shift 2 ;;
	-h|-help|--help) sed -n '2,14p' "$0"; exit 0 ;;
	-*) echo "run.sh: unknown flag $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
labels=("$@")
[ ${#labels[@]} -gt 0 ] || labels=("$here"/labels/*.tsv)
out=${out:-$(mktemp -d "${TMPDIR:-/tmp}/retrylint-eval.XXXXXX")}
mkdir -p "$out"
if [ -z "$bin" ]; then
	bin=$out/retrylint
	(cd "$repo" && go build -o "$bin" ./cmd/retrylint)
fi
cd "$here"
mapfile -t pkgs < <(grep -v '^#' packages.txt | grep .)
# retrylint exits 0 with -json whatever it finds; load errors give 1.
GOWORK=off GOFLAGS=-mod=mod "$bin" -json -test=false "${pkgs[@]}" >"$out/retrylint.json" 2>"$out/retrylint.stderr" || {
	code=$?
	[ $code -eq 1 ] || { echo "run.sh: retrylint exited $code; see $out/retrylint.stderr" >&2; exit 1; }
}
(cd "$repo" && go run ./internal/evalscore/score -json "$out/retrylint.json" "${labels[@]}") | tee "$out/score.txt"
echo "results: $out" >&2
