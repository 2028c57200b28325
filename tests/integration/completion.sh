# The bash completion offers the right words, driven as bash would drive it.
. tests/lib.sh

sh scripts/deps.sh bash-completion >/dev/null 2>&1 || exit 1
mkdir -p "$TMP/recs/run.d"
: >"$TMP/recs/a.rec"
: >"$TMP/recs/b.rec"
: >"$TMP/recs/notes.txt"
cat >"$TMP/drive.bash" <<'EOF2'
. /usr/share/bash-completion/bash_completion
. "$ROOT/scripts/mmtop.bash-completion"
# comp WORD... : what completing the last word offers, sorted, on one line
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMP_LINE="$*"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_mmtop mmtop "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '
	echo
}
EOF2
comp() { # comp WANT WORD...: the completion of WORD... is WANT
	want=$1
	shift
	# The options are each command's --help's: mmtop on PATH, as installed.
	got=$(cd "$TMP/recs" && PATH="$ROOT:$PATH" ROOT=$ROOT bash -c '. "$0"; comp "$@"' \
		"$TMP/drive.bash" "$@" 2>&1)
	check "complete '$*': '$want' (got '$got')" test "$got" = "$want "
}
ROOT=$(pwd)
comp "bench compare help probe record replay report serve" mmtop ""
comp "bench compare probe record replay report serve" mmtop help ""
comp "csv json openmetrics prometheus text" mmtop -f ""
comp "markdown text" mmtop compare -f ""
comp "contention faults fork mmap_lock pcp" mmtop --disable-probe ""
comp "churn fork pcp pft" mmtop bench ""
comp "--raw-addresses --rotate" mmtop record --r
comp "--rotate" mmtop record --ro
comp "--listen" mmtop serve --l
comp "--batch --begin" mmtop replay --b
comp "a.rec b.rec run.d" mmtop replay ""
comp "--warmup" mmtop bench pft --wa
comp "--help --html" mmtop compare --h
comp "--exact --exact-every" mmtop --exa
comp "a.rec b.rec run.d" mmtop report --begin 10:00 ""
comp "--help --html" mmtop report --h
comp "--format --help --html --output" mmtop compare --
comp "auto raw_tp tp_btf" mmtop --attach ""
comp "--shared-vma" mmtop bench churn --sh
# Each workload's options, as its own help lists them.
for w in pft churn fork pcp; do
	want=$("$MMTOP" bench $w --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u | tr '\n' ' ')
	comp "${want% }" mmtop bench $w --
done
