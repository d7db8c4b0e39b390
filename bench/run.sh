#!/usr/bin/env bash
# bench/run.sh: what retrylint costs beyond loading and type-checking.
#
# Usage, from the repository root:
#   bench/run.sh [-n RUNS] [-test=BOOL] [-no-mc] [-dir DIR] [PACKAGES...]
#
# With no packages it measures the modules of the evaluation (eval/: the
# packages eval/packages.txt lists, at the versions eval/go.mod pins,
# fetched through the Go module proxy on the first run). In one
# invocation, on the same packages, it runs each of these RUNS times
# (default 5), interleaved so that machine noise spreads evenly, and
# reports the median wall time, CPU time (user plus system) and peak
# resident memory (GNU time) of each and their ratios to the floor:
#
#   floor          a no-op analyzer (inspector walk) through retrylint's driver
#   floor+facts    the same with a fact type declared
#   retrylint      every pass
#   mc floor+facts the no-op with a fact type through x/tools' multichecker,
#                  which then parses and type-checks every dependency
#                  (slow; -no-mc leaves it out)
#
# Needs go and GNU time (apt-get install -y time).
set -euo pipefail

runs=5
test=false
mc=true
dir=
pkgs=()
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	-test=*) test=${1#*=}; shift ;;
	-dir) dir=$2; shift 2 ;;
	-no-mc) mc=false; shift ;;
	-h | -help | --help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) pkgs+=("$1"); shift ;;
	esac
done
[ -x /usr/bin/time ] || { echo "bench/run.sh: needs GNU time (apt-get install -y time)" >&2; exit 2; }
repo=$(pwd)
if [ ${#pkgs[@]} -eq 0 ]; then
	dir=${dir:-$repo/eval}
	mapfile -t pkgs < <(grep -v '^#' "$dir/packages.txt" | awk 'NF {print $1}')
	gomod=-mod=mod
fi
dir=${dir:-$repo}
gomod=${gomod:-}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go build -o "$out/retrylint" ./cmd/retrylint
go build -o "$out/noop" ./bench/noop

# Warm the build cache (export data of the dependencies) once.
(cd "$dir" && GOWORK=off GOFLAGS="${GOFLAGS:-} $gomod" go list -e -export -deps -test="$test" "${pkgs[@]}" >/dev/null 2>&1) || true

names=(floor floor+facts retrylint "mc floor+facts")
which=(0 1 2 3)
$mc || which=(0 1 2)
cmdline() {
	case $1 in
	0) echo "$out/noop -test=$test" ;;
	1) echo "$out/noop -facts -test=$test" ;;
	2) echo "$out/retrylint -json -test=$test" ;;
	3) echo "$out/noop -multichecker -facts -test=$test" ;;
	esac
}
for ((r = 1; r <= runs; r++)); do
	for i in "${which[@]}"; do
		# shellcheck disable=SC2046
		rc=0
		(cd "$dir" && GOWORK=off GOFLAGS="${GOFLAGS:-} $gomod" /usr/bin/time -f "%e %M %U %S" -o "$out/t.$i.$r" $(cmdline $i) "${pkgs[@]}" >/dev/null 2>"$out/err.$i.$r") || rc=$?
		if [ "$rc" -ne 0 ] || ! [ -s "$out/t.$i.$r" ]; then echo "bench/run.sh: ${names[$i]} failed (exit $rc)" >&2; tail -20 "$out/err.$i.$r" >&2; exit 1; fi
		tail -1 "$out/t.$i.$r" >"$out/t.$i.$r.last"
	done
	echo "run $r/$runs done" >&2
done

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
printf '%d packages, %d runs each, median; ratios to the floor\n' "${#pkgs[@]}" "$runs"
printf '%-16s %9s %9s %9s %9s %9s %9s\n' "" "wall s" "ratio" "CPU s" "ratio" "peak MB" "ratio"
for i in "${which[@]}"; do
	w[$i]=$(cat "$out"/t.$i.*.last | awk '{print $1}' | median)
	m[$i]=$(cat "$out"/t.$i.*.last | awk '{print $2/1024}' | median)
	c[$i]=$(cat "$out"/t.$i.*.last | awk '{print $3+$4}' | median)
done
for i in "${which[@]}"; do
	printf '%-16s %9.2f %8.2fx %9.2f %8.2fx %9.0f %8.2fx\n' "${names[$i]}" "${w[$i]}" "$(echo "${w[$i]} / ${w[0]}" | bc -l)" "${c[$i]}" "$(echo "${c[$i]} / ${c[0]}" | bc -l)" "${m[$i]}" "$(echo "${m[$i]} / ${m[0]}" | bc -l)"
done
# The target for an analyzer with facts: its cost beside the floor with the
# same loading needs.
printf 'retrylint / floor+facts: wall %.2fx, CPU %.2fx, peak memory %.2fx\n' "$(echo "${w[2]} / ${w[1]}" | bc -l)" "$(echo "${c[2]} / ${c[1]}" | bc -l)" "$(echo "${m[2]} / ${m[1]}" | bc -l)"
