# The viewer on machines of many CPUs, without a guest: synthesized
# recordings (tests/tools/synth_rec.c) of 64 CPUs on 2 nodes and 256 on 8,
# replayed in an 80x24 terminal (tmux). Every node's total stays on the
# screen in the Overview and at the top of the CPUs view; the Overview
# shows the busiest CPUs (the last one takes 50000 faults an interval,
# then CPUs 1 and 0) and says how many it leaves out.
. tests/lib.sh

if ! command -v tmux >/dev/null; then
	fail "many CPUs: tmux (installed by scripts/deps.sh) is missing"
	exit 0
fi
export TMUX_TMPDIR="$TMP"
trap 'tmux kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
tmux new-session -d -s keep "sleep 600"

for machine in 64:2 256:8; do
	cpus=${machine%:*} nodes=${machine#*:}
	S=many-$cpus
	SYNTH_CPUS=$cpus SYNTH_NODES=$nodes build/tests/tools/synth_rec "$TMP/$cpus.rec" 5
	tmux new-session -d -s "$S" -x 80 -y 24 "$MMTOP replay '$TMP/$cpus.rec'; sleep 600"
	last=$((nodes - 1))
	check "$cpus CPUs, $nodes nodes: the Overview shows node$last's total" \
		screen_shows "$S" "node$last  *$((cpus / nodes)) CPUs"
	check "$cpus CPUs: the Overview's busiest CPU first ($((cpus - 1)) at 50.0k), then 1 and 0" \
		sh -c "tmux capture-pane -p -t '$S' | grep -A2 '^ *$((cpus - 1)) \[' |
			awk '{ print \$1 }' | tr '\n' ' ' | grep -qx '$((cpus - 1)) 1 0 '"
	# The CPUs shown and the count left out make the machine's.
	tmux capture-pane -p -t "$S" >"$TMP/screen"
	shown=$(grep -c '^ *[0-9]* \[' "$TMP/screen")
	left=$(sed -n 's/^+\([0-9]*\) more CPUs, each at most \([0-9.]*\) faults.*/\1 \2/p' "$TMP/screen")
	check "$cpus CPUs: the Overview leaves out ${left%% *} of them, each below those shown: after the last, 1 and 0, the CPUs from the last but one down ($shown shown, '$left')" \
		test "$((shown + ${left%% *}))" -eq "$cpus" -a "${left#* }" = "$((cpus - shown + 1)).0"
	tmux send-keys -t "$S" 2
	screen_shows "$S" "NODE STATE" 5
	tmux capture-pane -p -t "$S" >"$TMP/screen"
	first=$(grep -m 1 -o '^\(node\|cpu\)[0-9]*' "$TMP/screen")
	check "$cpus CPUs: the CPUs view lists the $nodes nodes first (node$last, the busiest, at the top: $first)" \
		test "$first" = "node$last" -a "$(grep -c '^node[0-9]' "$TMP/screen")" -eq "$nodes"
	tmux kill-session -t "$S"
done
