#!/usr/bin/env bash
# bench/compiletime.sh: times son build against gcc -O2 on one generated
# function of about 10,000 lines (bench/gensrc: a program of the scaling
# benchmark's kind and the same function in C), each compiler as a whole
# process, in the same run, and checks that both executables agree.
#
# Usage: bench/compiletime.sh [-w] [-r RUNS] [-l LINES]
#   -w        also write the table into docs/PERFORMANCE.md, between the
#             lines <!-- compiletime:begin --> and <!-- compiletime:end -->
#   -r RUNS   runs of each compiler (default 5; the median is shown)
#   -l LINES  the program's lines (default 10000)
set -euo pipefail

cd "$(dirname "$0")/.."
write=0 runs=5 lines=10000
while getopts "wr:l:" opt; do
	case $opt in
	w) write=1 ;;
	r) runs=$OPTARG ;;
	l) lines=$OPTARG ;;
	*) echo "usage: bench/compiletime.sh [-w] [-r RUNS] [-l LINES]" >&2; exit 2 ;;
	esac
done
command -v gcc >/dev/null || { echo "compiletime: gcc is required" >&2; exit 2; }

out=$(mktemp -d "${TMPDIR:-/tmp}/son-ctime.XXXXXX")
trap 'rm -rf "$out"' EXIT
go build -o "$out/son" ./cmd/son
go run ./bench/gensrc -lines "$lines" -o "$out/gen"

# time_cmd: runs "$@" $runs times; prints the median wall and CPU (user +
# system) seconds, from /usr/bin/time's or bash's own clock.
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

read -r son_wall son_cpu < <(time_cmd "$out/son" build -o "$out/gen.son" "$out/gen.smp")
read -r gcc_wall gcc_cpu < <(time_cmd gcc -O2 -fwrapv -w -o "$out/gen.gcc" "$out/gen.c")
"$out/son" build -o "$out/gen.son" "$out/gen.smp"
gcc -O2 -fwrapv -w -o "$out/gen.gcc" "$out/gen.c"
for a in 0 1 7 -3 1000705; do
	s=$("$out/gen.son" $a 2>/dev/null) && ss=0 || ss=$?
	g=$("$out/gen.gcc" $a 2>/dev/null) && gs=0 || gs=$?
	if [ "$s $ss" != "$g $gs" ]; then
		echo "compiletime: MISMATCH at $a: son prints '$s' (status $ss), gcc's '$g' (status $gs)" >&2
		exit 1
	fi
done

n=$(wc -l <"$out/gen.smp")
table=$(
	echo "| compiler | lines | wall (s) | CPU (s) | CPU / gcc -O2's |"
	echo "|---|---:|---:|---:|---:|"
	awk -v n="$n" -v sw="$son_wall" -v sc="$son_cpu" -v gw="$gcc_wall" -v gc="$gcc_cpu" 'BEGIN {
		printf "| son build | %d | %.2f | %.2f | %.2f |\n", n, sw, sc, sc / gc
		printf "| gcc -O2 | %d | %.2f | %.2f | 1.00 |\n", n, gw, gc
	}'
)
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
