#!/usr/bin/env bash
# bench/run.sh: runs the benchmark programs of bench/ built by son, gcc -O0,
# gcc -O2 and tcc, checks that all print the same result, and prints a
# Markdown table of median run times as ratios to gcc -O2.
#
# Usage: bench/run.sh [-w] [-r RUNS] [NAME...]
#   -w       also write the table into docs/PERFORMANCE.md, between the
#            lines <!-- bench:begin --> and <!-- bench:end -->
#   -r RUNS  timed runs of each executable (default 5; the median is shown)
#   NAME     programs to run (default: all of them)
#
# The C programs use int64_t arithmetic that must wrap as Simple's does:
# gcc gets -fwrapv; tcc does not exploit signed overflow, so it wraps anyway.
# tcc is installed with apt-get when missing and possible, else skipped.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$PWD

# The argument of each program: about a second with gcc -O2 on an idle core
# of the machine the table in docs/PERFORMANCE.md comes from.
declare -A ARG=(
	[collatz]=5000000
	[digitsum]=150000000
	[gcdsum]=12000000
	[isqrt]=30000000
	[modpow]=10000000
	[popcount]=40000000
	[primes]=4000000
	[recurrence]=250000000
)

write=0
runs=5
while getopts "wr:" opt; do
	case $opt in
	w) write=1 ;;
	r) runs=$OPTARG ;;
	*) echo "usage: bench/run.sh [-w] [-r RUNS] [NAME...]" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -gt 0 ]; then
	progs=("$@")
else
	progs=($(printf '%s\n' "${!ARG[@]}" | sort))
fi
for p in "${progs[@]}"; do
	if [ -z "${ARG[$p]:-}" ] || [ ! -f "bench/$p.smp" ] || [ ! -f "bench/$p.c" ]; then
		echo "bench: no program $p (want bench/$p.smp, bench/$p.c and an argument in run.sh)" >&2
		exit 2
	fi
done

# The compilers.
if ! command -v gcc >/dev/null; then
	echo "bench: gcc is required (the ratios are to gcc -O2)" >&2
	exit 2
fi
if ! command -v tcc >/dev/null && command -v apt-get >/dev/null; then
	echo "bench: installing tcc with apt-get" >&2
	timeout 300 apt-get install -y tcc >/dev/null 2>&1 ||
		echo "bench: apt-get install tcc failed" >&2
fi
compilers=(son gcc-O0 gcc-O2)
if command -v tcc >/dev/null; then
	compilers+=(tcc)
else
	echo "bench: tcc not available: its column is skipped" >&2
fi

out=$(mktemp -d "${TMPDIR:-/tmp}/son-bench.XXXXXX")
trap 'rm -rf "$out"' EXIT
go build -o "$out/son" ./cmd/son

build() { # compiler program -> executable path
	local c=$1 p=$2 exe="$out/$p.$1"
	case $c in
	son) "$out/son" build -o "$exe" "bench/$p.smp" ;;
	gcc-O0) gcc -O0 -fwrapv -o "$exe" "bench/$p.c" ;;
	gcc-O2) gcc -O2 -fwrapv -o "$exe" "bench/$p.c" ;;
	tcc) tcc -o "$exe" "bench/$p.c" ;;
	esac
	echo "$exe"
}

# median_ms exe arg: runs exe arg $runs times, prints the median wall time in ms.
median_ms() {
	local i t0 t1 times=()
	for ((i = 0; i < runs; i++)); do
		t0=$(date +%s%N)
		"$1" "$2" >/dev/null
		t1=$(date +%s%N)
		times+=($(((t1 - t0) / 1000)))
	done
	printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {
		m = (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2; printf "%.1f\n", m / 1000 }'
}

declare -A MS
bad=0
for p in "${progs[@]}"; do
	want=""
	for c in "${compilers[@]}"; do
		if ! exe=$(build "$c" "$p"); then
			echo "bench: FAILED: $c cannot build $p" >&2
			exit 1
		fi
		got=$("$exe" "${ARG[$p]}" 2>&1) || got="$got (exit status $?)"
		if [ -z "$want" ]; then
			want=$got wantc=$c
		elif [ "$got" != "$want" ]; then
			echo "bench: MISMATCH: $p ${ARG[$p]}: $wantc prints $want, $c prints $got" >&2
			bad=1
		fi
	done
	[ $bad = 0 ] || continue
	for c in "${compilers[@]}"; do
		MS[$p,$c]=$(median_ms "$out/$p.$c" "${ARG[$p]}")
	done
	echo "bench: $p ${ARG[$p]} = $want" >&2
done
if [ $bad != 0 ]; then
	echo "bench: FAILED: the compilers disagree (see above)" >&2
	exit 1
fi

# The table: ratios to gcc -O2, and their geometric means.
table=$(
	{
		printf '%s' "| program | argument | gcc -O2 (ms)"
		for c in "${compilers[@]}"; do printf ' | %s' "${c/gcc-/gcc -}"; done
		echo " |"
		printf '%s' "|---|---:|---:"
		for c in "${compilers[@]}"; do printf '|---:'; done
		echo "|"
		for p in "${progs[@]}"; do
			printf '%s' "$p ${ARG[$p]} ${MS[$p,gcc-O2]}"
			for c in "${compilers[@]}"; do printf ' %s' "${MS[$p,$c]}"; done
			echo
		done
	} | awk -v n="${#compilers[@]}" '
	NR <= 2 { print; next }
	{
		line = "| " $1 " | " $2 " | " sprintf("%.0f", $3)
		for (i = 1; i <= n; i++) {
			r = $(3 + i) / $3
			line = line sprintf(" | %.2f", r)
			logsum[i] += log(r)
		}
		print line " |"
		rows++
	}
	END {
		line = "| geometric mean | | "
		for (i = 1; i <= n; i++) line = line sprintf(" | **%.2f**", exp(logsum[i] / rows))
		print line " |"
	}'
)
echo "$table"

if [ $write = 1 ]; then
	doc=docs/PERFORMANCE.md
	if ! grep -q '^<!-- bench:begin -->$' "$doc" || ! grep -q '^<!-- bench:end -->$' "$doc"; then
		echo "bench: $doc has no <!-- bench:begin --> and <!-- bench:end --> lines" >&2
		exit 1
	fi
	{
		awk '{ print } /^<!-- bench:begin -->$/ { exit }' "$doc"
		echo "$table"
		awk 'f { print } /^<!-- bench:end -->$/ { f = 1; print }' "$doc"
	} >"$out/doc"
	cp "$out/doc" "$doc"
	echo "bench: wrote the table into $doc" >&2
fi
