#!/usr/bin/env bash
# bench/vet.sh: what retrylint costs through go vet -vettool, cold and warm.
#
# Usage, from the repository root:
#   bench/vet.sh [-n RUNS] [-dir DIR] [PACKAGES...]
#
# With no packages it measures the modules of the evaluation (eval/: the
# packages eval/packages.txt lists, at the versions eval/go.mod pins,
# fetched through the Go module proxy on the first run). go vet caches the
# result of a vet tool per package, keyed by the package's inputs and the
# tool's build ID. Each
# run relinks every tool with a new build ID, so that its first go vet finds
# no result cached (cold: the build cache still holds the compiled
# dependencies, as after an upgrade of the tool) and its second finds all
# (warm: nothing changed). Tools, interleaved in each run:
#
#   floor        a no-op vet tool (inspector walk): go vet runs it on the
#                named packages only
#   floor+facts  the same declaring a fact type: go vet then runs it on every
#                dependency too, the standard library included
#   retrylint    every pass (it has facts)
#
# It prints the median wall time and peak memory (GNU time; go vet and the
# tools it starts, the largest process) of each and their ratios.
# go vet analyzes test files too. Needs go and GNU time.
set -euo pipefail

runs=3
dir=
pkgs=()
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	-dir) dir=$2; shift 2 ;;
	-h | -help | --help) sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) pkgs+=("$1"); shift ;;
	esac
done
[ -x /usr/bin/time ] || { echo "bench/vet.sh: needs GNU time (apt-get install -y time)" >&2; exit 2; }
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

names=(floor floor+facts retrylint)
build() { # tool index, run
	case $1 in
	0) go build -ldflags="-buildid=vetbench-$2" -o "$out/tool.0" ./bench/noop ;;
	1) go build -ldflags="-buildid=vetbench-$2 -X=main.vetFacts=true" -o "$out/tool.1" ./bench/noop ;;
	2) go build -ldflags="-buildid=vetbench-$2" -o "$out/tool.2" ./cmd/retrylint ;;
	esac
}

# Compile the packages and their dependencies, tests included, once.
build 0 warmup
(cd "$dir" && GOWORK=off GOFLAGS="${GOFLAGS:-} $gomod" go vet -vettool="$out/tool.0" "${pkgs[@]}" >/dev/null 2>&1) || true

for ((r = 1; r <= runs; r++)); do
	for i in 0 1 2; do
		build $i "$r-$$"
		for phase in cold warm; do
			rc=0
			(cd "$dir" && GOWORK=off GOFLAGS="${GOFLAGS:-} $gomod" /usr/bin/time -f "%e %M" -o "$out/t.$i.$phase.$r" go vet -vettool="$out/tool.$i" "${pkgs[@]}" >/dev/null 2>"$out/err.$i.$r") || rc=$?
			# go vet exits 1 when the tool reports something.
			if [ "$rc" -gt 1 ] || ! grep -q '^[0-9.]* [0-9]*$' "$out/t.$i.$phase.$r"; then
				echo "bench/vet.sh: ${names[$i]} ($phase) failed (exit $rc)" >&2
				tail -20 "$out/err.$i.$r" >&2
				exit 1
			fi
			grep '^[0-9.]* [0-9]*$' "$out/t.$i.$phase.$r" | tail -1 >"$out/t.$i.$phase.$r.last"
		done
	done
	echo "run $r/$runs done" >&2
done

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
printf 'go vet -vettool, %d packages (and their tests), %d runs each, median\n' "${#pkgs[@]}" "$runs"
printf '%-12s %-5s %9s %9s %9s %9s %9s\n' "" "" "wall s" "/floor" "/facts" "peak MB" "/facts"
for phase in cold warm; do
	for i in 0 1 2; do
		w[$i]=$(cat "$out"/t.$i.$phase.*.last | awk '{print $1}' | median)
		m[$i]=$(cat "$out"/t.$i.$phase.*.last | awk '{print $2/1024}' | median)
	done
	for i in 0 1 2; do
		printf '%-12s %-5s %9.2f %8.2fx %8.2fx %9.0f %8.2fx\n' "${names[$i]}" "$phase" "${w[$i]}" \
			"$(echo "${w[$i]} / ${w[0]}" | bc -l)" "$(echo "${w[$i]} / ${w[1]}" | bc -l)" \
			"${m[$i]}" "$(echo "${m[$i]} / ${m[1]}" | bc -l)"
	done
done
