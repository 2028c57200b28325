# The viewer gives the terminal back however it ends: q, SIGTERM, SIGQUIT
# (Ctrl-\, which also dumps core as the user asked) and SIGABRT: no
# alternate screen left on, cursor visible, echo and line editing back.
. tests/lib.sh

why=$(bpf_refused)
if [ -n "$why" ]; then
	skip "terminal: $why"
	exit 0
fi
export TMUX_TMPDIR="$TMP"
trap 'tmux kill-server 2>/dev/null; rm -rf "$TMP"' EXIT
ulimit -c 0
# One tmux server for every round: killing a round's session must not end
# the server while the next round starts one ("server exited unexpectedly").
tmux new-session -d -s keep "sleep 600"

# The viewer, then its exit status and the terminal's echo and icanon flags.
cat >"$TMP/run.sh" <<EOF2
"$MMTOP" -d 0.2
echo EXIT=\$?
stty -a | tr ' ' '\n' | grep -xE -- '-?(echo|icanon)' | sed 's/^/TTY:/'
sleep 600
EOF2

# end_with NAME HOW ARG STATUS: start the viewer in a fresh terminal, end
# it by HOW (key: send the key ARG, in hex; sig: send signal ARG), expect
# exit STATUS.
end_with() {
	name=$1 how=$2 arg=$3 want=$4 S=term-$1
	tmux new-session -d -s "$S" -x 120 -y 40 "sh $TMP/run.sh"
	screen_shows "$S" "probes: faults" 10
	if [ "$how" = key ]; then
		tmux send-keys -t "$S" -H "$arg"
	else
		pkill -"$arg" -f "^$MMTOP -d 0.2\$"
	fi
	screen_shows "$S" "EXIT=" 5
	status=$(tmux capture-pane -p -t "$S" | sed -n 's/^EXIT=//p')
	check "$name: exit status $want (got $status)" test "$status" = "$want"
	check "$name: alternate screen off" test "$(tmux display -p -t "$S" '#{alternate_on}')" = 0
	check "$name: cursor visible" test "$(tmux display -p -t "$S" '#{cursor_flag}')" = 1
	check "$name: echo and line editing on" \
		sh -c "tmux capture-pane -p -t '$S' | grep -qx TTY:echo && tmux capture-pane -p -t '$S' | grep -qx TTY:icanon"
	tmux kill-session -t "$S"
}
end_with q key 71 0
end_with SIGTERM sig TERM 0
end_with SIGQUIT sig QUIT 131
end_with SIGABRT sig ABRT 134

# A recording cut short while the replay viewer has it open (a rotated
# file deleted, a truncate): stepping through it is no crash (no SIGBUS).
"$MMTOP" record -o "$TMP/cut.rec" -d 0.05 -n 40
S=term-cut
tmux new-session -d -s "$S" -x 120 -y 40 "sh -c '\"$MMTOP\" replay \"$TMP/cut.rec\"; echo EXIT=\$?; sleep 600'"
screen_shows "$S" "REPLAY" 10
truncate -s 300 "$TMP/cut.rec"
for k in 1 2 3 4 5 6 7 8 9 10; do tmux send-keys -t "$S" t; done
tmux send-keys -t "$S" j 3 0 Enter
tmux send-keys -t "$S" q
screen_shows "$S" "EXIT=" 5
status=$(tmux capture-pane -p -t "$S" | sed -n 's/^EXIT=//p')
check "replay of a file truncated under it: steps and jumps, then q exits 0 (got $status)" \
	test "$status" = 0
tmux kill-session -t "$S"

# -n and --duration end the viewer too, as top -n does.
for arg in "-n 3" "--duration 0.6s"; do
	S=term-count
	tmux new-session -d -s "$S" -x 120 -y 40 "sh -c '\"$MMTOP\" -d 0.2 $arg; echo EXIT=\$?; sleep 600'"
	screen_shows "$S" "EXIT=" 10
	status=$(tmux capture-pane -p -t "$S" | sed -n 's/^EXIT=//p')
	check "viewer with $arg: ends by itself, exit 0 (got '$status'), screen given back" \
		sh -c "test '$status' = 0 && test \"\$(tmux display -p -t '$S' '#{alternate_on}')\" = 0"
	tmux kill-session -t "$S"
done
