# HTML pages (report --html, compare --html) opened from the file system in
# headless Chromium as a user would open them (tests/browser.py drives it
# over the DevTools protocol): no console error, every plot there with as
# many marks as the recording has intervals, forks or samples, a hostile
# process name shown as text and never as markup, both themes, a phone's
# width. Screenshots are kept in build/test-artifacts/.
. tests/lib.sh

ART=build/test-artifacts
SYNTH=build/tests/tools/synth_rec
mkdir -p "$ART"

# browse OUT PAGE [browser.py options]: the page's report into OUT.
browse() {
	out=$1 page=$(basename "$2")
	shift
	python3 tests/browser.py "$@" >"$out" 2>&1
	check "$page opens in Chromium ($(sed -n 's/^load_ms=//p' "$out") ms to load) $(grep '^browser' "$out")" \
		grep -q '^load_ms=' "$out"
	check "$page: no console errors $(grep '^error=' "$out" | head -3)" \
		grep -qx 'console_errors=0' "$out"
}
val() { sed -n "s/^$1=//p" "$2" | tr -d '"'; }
# There are values, and each is from LO to HI.
all_in() { # all_in LO HI VALUE...
	lo=$1 hi=$2
	shift 2
	[ $# -gt 0 ] || return 1
	for v; do [ "$v" -ge "$lo" ] && [ "$v" -le "$hi" ] || return 1; done
}
# JavaScript for the browser: marks per plot of a kind, as "N N N".
marks() { # marks KIND SELECTOR
	echo "[...document.querySelectorAll('figure[data-kind=$1]')].map(f => f.querySelectorAll('$2').length).join(' ')"
}
HOSTILE_JS="document.body.innerText.includes('<i id=pwn>') && !document.getElementById('pwn') && !document.querySelector('i')"

# 1. Known answers without BPF: a synthesised day of 1-s intervals with a
# one-interval spike of 1,000,000 faults on CPU 1 at 13:53:20 and no
# intervals from 08:20 to 09:20 (tests/tools/synth_rec.c).
"$SYNTH" "$TMP/day.rec" 86400 50000 30000 3600
"$MMTOP" report --html -o "$TMP/day.html" "$TMP/day.rec"
check "report --html of a day exits 0" test $? -eq 0
size=$(stat -c %s "$TMP/day.html")
check "a day of 1-s intervals makes a page under 5 MB ($size bytes)" test "$size" -lt 5000000
browse "$TMP/day.out" "$TMP/day.html" \
	--eval "hover=$(marks timeseries '.hov rect')" \
	--eval "gaps=$(marks timeseries '.gap')" \
	--eval "spike=[...document.querySelectorAll('#faults-cpu .hov title')].filter(t => /CPU 1: 2k\/s-1M\/s/.test(t.textContent)).length" \
	--eval "gap_row=document.querySelector('#gaps tr:nth-child(2)').textContent" \
	--eval "hostile=$HOSTILE_JS"
# 800 time buckets, less the 33 or 34 wholly inside the hour with no data.
# shellcheck disable=SC2046
set -- $(val hover "$TMP/day.out")
eight_in() { [ $# -eq 8 ] && all_in 766 767 "$@"; }
check "day: each of the 8 time plots has one hover mark per bucket with data (766-767 of 800: $*)" \
	eight_in "$@"
check "day: the one-interval spike is in exactly one bucket's values ($(val spike "$TMP/day.out"))" \
	test "$(val spike "$TMP/day.out")" = 1
# shellcheck disable=SC2046
check "day: the missing hour is one shaded gap in every time plot" all_in 1 1 $(val gaps "$TMP/day.out")
check "day: the gap table gives its place and length ($(val gap_row "$TMP/day.out"))" \
	test "$(val gap_row "$TMP/day.out")" = "2026-12-01T08:20:00.000Z2026-12-01T09:20:00.000Z3600.0 s"
check "day: a hostile holder name is text, not markup" test "$(val hostile "$TMP/day.out")" = true

# Bad input: a clear error, and nothing of an earlier page lost.
for args in "report --html -f json x.rec" "report -o x.html x.rec" "compare --html -f markdown a b" \
	    "compare -o x.html a b"; do
	# shellcheck disable=SC2086
	"$MMTOP" $args >"$TMP/out" 2>&1
	rc=$?
	check "'mmtop $args' is a usage error (exit 2, got $rc: $(head -1 "$TMP/out"))" test "$rc" -eq 2
done
"$MMTOP" report --html -o "$TMP/no/such/dir/x.html" "$TMP/day.rec" 2>"$TMP/err"
rc=$?
check "report --html into a missing directory: exit 1, says where ($(cat "$TMP/err"))" \
	sh -c "test $rc -eq 1 && grep -q 'writing .*x.html: No such file or directory' '$TMP/err'"
head -c 5000000 "$TMP/day.rec" >"$TMP/cut.rec"
"$MMTOP" report --html -o "$TMP/cut.html" "$TMP/cut.rec" 2>"$TMP/err"
rc=$? n=$("$MMTOP" replay -b -f csv "$TMP/cut.rec" 2>/dev/null | grep -c ',total,')
check "a recording cut short: a page of its $n intervals, the cut reported ($(cat "$TMP/err"))" \
	sh -c "test $rc -eq 0 && grep -q 'torn' '$TMP/err' && grep -q ' $n intervals, 0 gaps' '$TMP/cut.html'"
mkdir -p "$TMP/small"
if mount -t tmpfs -o size=64k tmpfs "$TMP/small" 2>/dev/null; then
	echo "earlier page" >"$TMP/small/day.html"
	"$MMTOP" report --html -o "$TMP/small/day.html" "$TMP/day.rec" 2>"$TMP/err"
	rc=$?
	check "full disk: exit 1 with the reason (got $rc: $(cat "$TMP/err"))" \
		sh -c "test $rc -eq 1 && grep -q 'No space left on device' '$TMP/err'"
	check "full disk: the earlier page is intact, no temporary file left" \
		sh -c "test \"\$(cat '$TMP/small/day.html')\" = 'earlier page' && test \$(ls '$TMP/small' | wc -l) -eq 1"
	umount "$TMP/small"
else
	skip "full disk: cannot mount a small tmpfs here"
fi

# 2. compare --html: the tables of compare, and each metric's samples.
samples_rec "$TMP/low.rec" low 100 102 98 101 99
samples_rec "$TMP/high.rec" high 150 152 148 151 149
samples_rec "$TMP/same.rec" same 101 99 100 98 102
"$MMTOP" compare --html -o "$TMP/cmp.html" "$TMP/low.rec" "$TMP/high.rec" "$TMP/same.rec"
check "compare --html exits 0" test $? -eq 0
"$MMTOP" compare "$TMP/low.rec" "$TMP/high.rec" "$TMP/same.rec" >"$TMP/cmp.txt"
browse "$TMP/cmp.out" "$TMP/cmp.html" --screenshot "$ART/compare.png" --full \
	--eval "points=$(marks strip 'circle.pt')" \
	--eval "cells=[...document.querySelectorAll('#summary-table td')].map(t => t.textContent.replace(/ /g, '')).join('')" \
	--eval "marked=[...document.querySelectorAll('#summary-table .sig')].length" \
	--eval "axis=[...document.querySelectorAll('#metric-0 .tick')].map(t => t.textContent).join('|')"
check "compare --html: every sample drawn (5 + 5 + 5)" test "$(val points "$TMP/cmp.out")" = 15
want=$(grep '^Hmean' "$TMP/cmp.txt" | tr -d ' ')
check "compare --html: the table says what the text table says ($want)" \
	test "$(val cells "$TMP/cmp.out")" = "$want"
check "compare --html: the significant change marked once, and on its axis label" \
	sh -c "[ '$(val marked "$TMP/cmp.out")' = 1 ] && echo '$(val axis "$TMP/cmp.out")' | grep -q '|high \*|same|'"

# 3. A recorded workload: mmap_lock churn with forks from a process whose
# name is markup, forks of 4K and THP parents, faults on both CPUs.
why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "html report of a recorded workload: $why"
	exit 0
fi
W="$TMP/<i id=pwn>"
cp "$MMTOP" "$W"
# In exact mode, so that every plot of acquisitions and holds is drawn (a
# recording of the default set has the wait plots alone: section 4).
start_mmtop_csv "$TMP/w.csv" record -o "$TMP/w.rec" -d 0.5 --exact || exit 0
"$W" bench churn -t 1 -n 20000 --fork 20 --paced --chunk 64K >/dev/null &&
	"$MMTOP" bench fork -s 64M -n 10 >/dev/null &&
	"$MMTOP" bench fork -s 64M -n 10 --backing thp >/dev/null &&
	"$MMTOP" bench pft -t 2 -s 64M >/dev/null
check "the workloads exit 0" test $? -eq 0
stop_mmtop
check "the recorder exits 0" test $? -eq 0
n=$("$MMTOP" replay -b -f csv "$TMP/w.rec" | grep -c ',total,')
forks=$("$MMTOP" report -f json "$TMP/w.rec" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["forks"]))')
"$MMTOP" report --html -o "$TMP/w.html" "$TMP/w.rec"
check "report --html exits 0" test $? -eq 0
check "the page is private, as the recording (0600)" test "$(stat -c %a "$TMP/w.html")" = 600
browse "$TMP/w.out" "$TMP/w.html" --screenshot "$ART/report.png" \
	--eval "figures=[...document.querySelectorAll('figure')].map(f => f.id).join(' ')" \
	--eval "hover=$(marks timeseries '.hov rect')" \
	--eval "drawn=[...document.querySelectorAll('#faults-cpu path.line')].filter(p => p.getAttribute('d').includes('L')).length" \
	--eval "fork_points=document.querySelectorAll('#fork-latency .pt').length" \
	--eval "blame_rows=document.querySelectorAll('#blame-table tr').length - 1" \
	--eval "sites=document.querySelector('#lock-acq .legend').textContent" \
	--eval "summary=document.querySelector('#summary pre').textContent.includes('per-CPU faults/s over $n intervals')" \
	--eval "hostile=$HOSTILE_JS" \
	--eval "background=getComputedStyle(document.body).backgroundColor"
python3 tests/browser.py "$TMP/w.html" --full --screenshot "$ART/report-full.png" >/dev/null 2>&1
python3 tests/browser.py "$TMP/w.html" --clip '#lock-wait' --screenshot "$ART/report-lock-wait.png" >/dev/null 2>&1
for id in faults-cpu faults-node vma-share lock-acq lock-wait lock-hold lock-wait-dist \
	  lock-hold-dist fork-latency fork-hold fork-stall contention drops; do
	check "report: plot $id is there" sh -c "val() { sed -n 's/^figures=//p' '$TMP/w.out'; }; val | tr -d '\"' | tr ' ' '\n' | grep -qx $id"
done
# shellcheck disable=SC2046
check "report: every time plot has a hover mark per recorded interval ($n: $(val hover "$TMP/w.out"))" \
	all_in "$n" "$n" $(val hover "$TMP/w.out")
check "report: both CPUs' fault lines are drawn" test "$(val drawn "$TMP/w.out")" = 2
check "report: a point per recorded fork ($forks, at least the workload's 40)" \
	sh -c "[ '$(val fork_points "$TMP/w.out")' = $forks ] && [ $forks -ge 40 ]"
check "report: who waited behind whom has rows ($(val blame_rows "$TMP/w.out"))" \
	test "$(val blame_rows "$TMP/w.out")" -ge 1
check "report: the churn's call sites are drawn ($(val sites "$TMP/w.out"))" \
	sh -c "val() { sed -n 's/^sites=//p' '$TMP/w.out'; }; val | grep -q 'mmap write' && val | grep -q 'fault read'"
check "report: the text report is on the page ($n intervals)" test "$(val summary "$TMP/w.out")" = true
check "report: the hostile process name is text, not markup" test "$(val hostile "$TMP/w.out")" = true
check "report: light theme by default ($(val background "$TMP/w.out"))" \
	test "$(val background "$TMP/w.out")" = "rgb(255, 255, 255)"
browse "$TMP/dark.out" "$TMP/w.html" --hash dark --screenshot "$ART/report-dark.png" \
	--eval "background=getComputedStyle(document.body).backgroundColor"
check "report: #dark shows the dark theme ($(val background "$TMP/dark.out"))" \
	test "$(val background "$TMP/dark.out")" = "rgb(19, 20, 22)"
browse "$TMP/phone.out" "$TMP/w.html" --size 390x844 --screenshot "$ART/report-phone.png" \
	--eval "width=document.documentElement.scrollWidth"
check "report: a phone's 390 px: the page does not scroll sideways (plots do, in their box) ($(val width "$TMP/phone.out"))" \
	test "$(val width "$TMP/phone.out")" -le 390
echo "# screenshots: $ART/report.png report-full.png report-lock-wait.png report-dark.png report-phone.png compare.png"

# 4. A recording of the default set: its mmap_lock rows hold waits alone.
#    The page draws the waits of the churn's call sites and their
#    distribution, and no plot of acquisitions or holds, saying why. Its
#    forks are timed where the kernel lets the default set hook
#    kernel_clone; where not (this project's VM), the page says why and
#    draws no latency at 0.
start_mmtop_csv "$TMP/d.csv" record -o "$TMP/d.rec" -d 0.5 || exit 0
"$MMTOP" bench churn -t 1 -n 2000 --paced --chunk 64K --fork 10 >/dev/null
check "default set: the workload exits 0" test $? -eq 0
stop_mmtop
"$MMTOP" report --html -o "$TMP/d.html" "$TMP/d.rec"
browse "$TMP/d.out" "$TMP/d.html" \
	--eval "figures=[...document.querySelectorAll('figure')].map(f => f.id).join(' ')" \
	--eval "sites=document.querySelector('#lock-wait .legend').textContent" \
	--eval "why=document.querySelector('#mmap-lock').textContent.includes('exact mode (--exact')" \
	--eval "untimed=document.querySelector('#forks').textContent.includes('No fork was timed')" \
	--eval "vma=document.querySelector('#faults').textContent.includes('per-VMA lock: not measured in these intervals (per acquisition: exact mode')" \
	--eval "mean=document.querySelectorAll('#fork-cost td')[1].textContent"
figures=$(val figures "$TMP/d.out")
check "default set: no plot of the per-VMA lock's share, the reason in its place" \
	sh -c "! echo '$figures' | tr ' ' '\n' | grep -qx vma-share && [ '$(val vma "$TMP/d.out")' = true ]"
timed=$("$MMTOP" report -f json "$TMP/d.rec" | python3 -c 'import json, sys
print(sum(f["timed"] for f in json.load(sys.stdin)["forks"]))')
if [ "$timed" -gt 0 ]; then
	check "default set, $timed forks timed: their latency is drawn" \
		sh -c "echo '$figures' | tr ' ' '\n' | grep -qx fork-latency"
else
	check "default set, no fork timed: no latency drawn, the reason said, mean '$(val mean "$TMP/d.out")'" \
		sh -c "! echo '$figures' | tr ' ' '\n' | grep -qx fork-latency &&
			[ '$(val untimed "$TMP/d.out")' = true ] && [ '$(val mean "$TMP/d.out")' = - ]"
fi
check "default set: the wait plots are there, none of acquisitions or holds ($figures)" \
	sh -c "echo '$figures' | tr ' ' '\n' | grep -qx lock-wait && echo '$figures' | tr ' ' '\n' | grep -qx lock-wait-dist &&
		! echo '$figures' | tr ' ' '\n' | grep -Eqx 'lock-(acq|hold|hold-dist)'"
check "default set: the fault waits drawn by call site ($(val sites "$TMP/d.out"))" \
	sh -c "val() { sed -n 's/^sites=//p' '$TMP/d.out'; }; val | grep -q 'fault read'"
check "default set: the section says where acquisitions are counted" test "$(val why "$TMP/d.out")" = true
