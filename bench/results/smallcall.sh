#!/bin/sh
# The five-row call side by side: the decoder before issue 23's speed work
# (commit 8d56020), the one after it (MAIN, default 55ab676, where issue 31 began) and the working
# tree's, each given streaming/smallcall_test.go, their test binaries run in
# turn for six rounds, the order rotating; then instructions per call under
# callgrind, (Ir at 201 calls - Ir at 1) / 200, without the collector.
#
#	sh bench/results/smallcall.sh > bench/results/smallcall.txt
set -eu
MAIN=${MAIN:-55ab676}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for v in old main; do
	rev=8d56020
	[ $v = main ] && rev=$MAIN
	mkdir "$tmp/$v"
	git archive "$rev" | tar -x -C "$tmp/$v"
	cp streaming/smallcall_test.go "$tmp/$v/streaming/"
	(cd "$tmp/$v" && go test -c -o "$tmp/$v.test" ./streaming)
done
go test -c -o "$tmp/new.test" ./streaming
echo "# wall clock, load $(cat /proc/loadavg), $(date -u +%FT%TZ)"
for round in 1 2 3 4 5 6; do
	case $round in 1|4) order="old main new" ;; 2|5) order="main new old" ;; *) order="new old main" ;; esac
	for v in $order; do
		"$tmp/$v.test" -test.run '^$' -test.bench SmallCall -test.benchmem -test.benchtime 0.5s |
			grep '^Benchmark' | sed "s/^/$v $round /"
	done
done
echo "# load $(cat /proc/loadavg), $(date -u +%FT%TZ)"
if command -v valgrind >/dev/null; then
	echo "# instructions: benchmark version calls Ir"
	for bench in 'SmallCall/fresh$' 'SmallCall/reuse$'; do
		for v in old main new; do
			for n in 1 201; do
				GOMAXPROCS=1 GOGC=off GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind \
					--callgrind-out-file="$tmp/cg.out" "$tmp/$v.test" -test.run '^$' \
					-test.bench "$bench" -test.benchtime ${n}x >/dev/null 2>&1 ||
					echo "# callgrind of $v.test failed" >&2
				echo "# $bench $v $n $(grep '^summary:' "$tmp/cg.out" | awk '{print $2}')"
			done
		done
	done
fi
