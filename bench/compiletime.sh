#!/usr/bin/env bash
# bench/compiletime.sh: times son build against gcc -O2, gcc -O0 and tcc
# (installed with apt-get when missing, else left out) on generated
# functions of about 10,000 and 100,000 lines (bench/gensrc: a program of
# the scaling benchmark's kind and the same function in C), each compiler
# as a whole process, in the same run, and checks that all the
# executables agree.
#
# Usage: bench/compiletime.sh [-w] [-r RUNS] [-l LINES[,LINES...]]
#   -w        also write the table into docs/PERFORMANCE.md, between the
#             lines <!-- compiletime:begin --> and <!-- compiletime:end -->
#   -r RUNS   runs of each compiler at each size (default 5; the median
#             is shown)
#   -l LINES  the programs' lines, comma-separated (default 10000,100000)

set -euo pipefail

cd "$(dirname "$0")/.."
write=0 runs=5 sizes=10000,100000
while getopts "wr:l:" opt; do
	case $opt in
	w) write=1 ;;
	r) runs=$OPTARG ;;
	l) sizes=$OPTARG ;;
	*) echo "usage: bench/compiletime.sh [-w] [-r RUNS] [-l LINES[,LINES...]]" >&2; exit 2 ;;
	esac
done
command -v gcc >/dev/null || { echo "compiletime: gcc is required" >&2; exit 2; }

out=$(mktemp -d "${TMPDIR:-/tmp}/son-ctime.XXXXXX")
trap 'rm -rf "$out"' EXIT
go build -o "$out/son" ./cmd/son
# time_cmd: runs "$@" $runs times; prints the median wall and CPU (user +
# system) seconds, from bash's own clock.
time_cmd() {
	local i walls=() cpus=() t
	for ((i = 0; i < runs; i++)); do
		t=$( { TIMEFORMAT='%R %U %S'; time "$@" >/dev/null 2>&1; } 2>&1 )
		walls+=($(echo "$t" | awk '{print $1}'))
		cpus+=($(echo "$t" | awk '{printf "%.3f", $2 + $3}'))
	done
	med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }
	echo "$(med "${walls[@]}") $(med "${cpus[@]}")"
}

if ! command -v tcc >/dev/null && command -v apt-get >/dev/null; then
	echo "compiletime: installing tcc with apt-get" >&2
	timeout 300 apt-get install -y tcc >/dev/null 2>&1 ||
		echo "compiletime: apt-get install tcc failed" >&2
fi
# compilers: each as "name|command prefix", the output file and the
# source appended; gcc -O2 first, as the ratios are to its CPU time.
compilers=("gcc -O2|gcc -O2 -fwrapv -w -o" "son build|$out/son build -o")
command -v tcc >/dev/null && compilers+=("tcc|tcc -w -o") || echo "compiletime: tcc not installed; its rows are left out" >&2
compilers+=("gcc -O0|gcc -O0 -fwrapv -w -o")

table=$(
	echo "| compiler | lines | wall (s) | CPU (s) | CPU / gcc -O2's |"
	echo "|---|---:|---:|---:|---:|"
)
IFS=, read -ra lines_list <<<"$sizes"
for lines in "${lines_list[@]}"; do
	go run ./bench/gensrc -lines "$lines" -o "$out/gen"
	n=$(wc -l <"$out/gen.smp")
	gcc_cpu=
	for i in "${!compilers[@]}"; do
		name=${compilers[$i]%%|*} cmd=${compilers[$i]#*|}
		src=$out/gen.c
		[ "$name" = "son build" ] && src=$out/gen.smp
		read -r wall cpu < <(time_cmd $cmd "$out/exe$i" "$src")
		$cmd "$out/exe$i" "$src" >/dev/null 2>&1 || { echo "compiletime: $name failed on $src" >&2; exit 1; }
		[ -z "$gcc_cpu" ] && gcc_cpu=$cpu
		table+=$'\n'$(awk -v name="$name" -v n="$n" -v w="$wall" -v c="$cpu" -v g="$gcc_cpu" 'BEGIN {
			printf "| %s | %d | %.3f | %.3f | %.2f |", name, n, w, c, c / g
		}')
	done
	for a in 0 1 7 -3 1000705; do
		want=
		for i in "${!compilers[@]}"; do
			got=$("$out/exe$i" $a 2>/dev/null) && st=0 || st=$?
			if [ -z "$want" ]; then
				want="$got $st"
			elif [ "$got $st" != "$want" ]; then
				echo "compiletime: MISMATCH at $lines lines, argument $a: ${compilers[$i]%%|*} prints '$got' (status $st), gcc -O2's '$want'" >&2
				exit 1
			fi
		done
	done
done

echo "$table"
if [ $write = 1 ]; then
	doc=docs/PERFORMANCE.md
	if ! grep -q '^<!-- compiletime:begin -->$' "$doc" || ! grep -q '^<!-- compiletime:end -->$' "$doc"; then
		echo "compiletime: $doc has no <!-- compiletime:begin --> and <!-- compiletime:end --> lines" >&2
		exit 1
	fi
	{
		awk '{ print } /^<!-- compiletime:begin -->$/ { exit }' "$doc"
		echo "$table"
		awk 'f { print } /^<!-- compiletime:end -->$/ { f = 1; print }' "$doc"
	} >"$out/doc"
	cp "$out/doc" "$doc"
	echo "compiletime: wrote the table into $doc" >&2
fi
