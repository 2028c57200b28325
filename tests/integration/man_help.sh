# The man pages and the help agree: each command's page names exactly the
# options its help lists, every page renders and stays short, every page
# a page names exists, and the fields and the recording's version are the
# code's.
. tests/lib.sh

# The long options a page's OPTIONS section names.
page_options() { # page_options PAGE
	sed 's/\\-/-/g' "$1" | awk '/^\.SH/ { on = ($2 == "OPTIONS") } on' |
		grep -oE -- '--[a-z][a-z0-9-]+' | sort -u
}

# The long options a help lists: its options' labels, left of the text.
help_options() { # help_options HELP-FILE
	grep -E '^ {2,6}-' "$1" | cut -c1-28 | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u
}

# agree PAGE HELP-FILE: the page's options are the help's, both ways.
agree() {
	page_options "$1" >"$TMP/man"
	help_options "$2" >"$TMP/help"
	for o in $(comm -23 "$TMP/help" "$TMP/man"); do fail "$o is in its help but not in $1"; done
	for o in $(comm -13 "$TMP/help" "$TMP/man"); do fail "$o is in $1 but not in its help"; done
	check "$1 and its help list the same long options ($(wc -l <"$TMP/help"))" \
		sh -c "test -s '$TMP/help' && cmp -s '$TMP/help' '$TMP/man'"
}

# mmtop --help is the live view's; mmtop help COMMAND is COMMAND --help.
"$MMTOP" --help >"$TMP/live"
agree man/mmtop.8 "$TMP/live"
for cmd in record replay report compare serve bench probe; do
	"$MMTOP" help $cmd >"$TMP/$cmd"
	"$MMTOP" $cmd --help >"$TMP/$cmd.own"
	check "mmtop help $cmd is mmtop $cmd --help, and names its page" \
		sh -c "cmp -s '$TMP/$cmd' '$TMP/$cmd.own' && grep -qx 'See mmtop-$cmd(8).' '$TMP/$cmd'"
	check "man/mmtop-$cmd.8 is the page of a command in mmtop --help" \
		sh -c "test -f man/mmtop-$cmd.8 && grep -q '^       mmtop $cmd\|^usage: mmtop $cmd' '$TMP/live'"
	# probe has no options but those every command has.
	[ $cmd = probe ] && continue
	agree man/mmtop-$cmd.8 "$TMP/$cmd"
done
check "every command of mmtop --help has a page" sh -c "
	for c in \$(sed -n 's/^\(usage:\)* *mmtop \([a-z]*\) .*/\2/p' '$TMP/live' | sort -u); do
		test -f man/mmtop-\$c.8 || test \$c = help || exit 1
	done"

# Every page: its title is its file's, it renders, it is short, it has its
# sections, and each page it names exists.
for p in man/*.[578]; do
	name=${p#man/}
	sec=${name##*.}
	title=$(echo "${name%.*}" | tr a-z A-Z | sed 's/-/\\\\-/g')
	check "$name: .TH $title $sec" grep -q "^\.TH $title $sec " "$p"
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$p" >"$TMP/out" 2>"$TMP/warn"
	rc=$?
	check "$name: man -l renders it (rc $rc, $(wc -l <"$TMP/out") lines, warnings: $(head -c 200 "$TMP/warn"))" \
		sh -c "test $rc -eq 0 && test -s '$TMP/out' && test ! -s '$TMP/warn'"
	check "$name: at most 800 lines ($(wc -l <"$p"))" test "$(wc -l <"$p")" -le 800
	want="NAME DESCRIPTION SEE_ALSO"
	[ "$sec" = 8 ] && want="$want SYNOPSIS"
	for s in $want; do
		check "$name: has section $s" grep -q "^\.SH \"*$(echo $s | tr _ ' ')\"*\$" "$p"
	done
	for ref in $(sed 's/\\-/-/g' "$p" | grep -oE 'mmtop-[a-z]+ *\(?[578]\)' | tr -d ' ()' | sort -u); do
		check "$name names $ref, a page of man/" test -f "man/${ref%[578]}.${ref#${ref%[578]}}"
	done
done
for s in OPTIONS VIEWER "EXIT STATUS" FILES EXAMPLES; do
	check "mmtop.8 has section $s" grep -q "^\.SH \"*$s\"*\$" man/mmtop.8
done

# Every CSV column (those the row tables add among them) and every JSON key
# of a row is in mmtop-metrics(7), as a word in bold (.B or .BR). A
# recording of every row type replays without BPF.
metrics=man/mmtop-metrics.7
sed 's/\\-/-/g; s/\\(dq//g' $metrics | awk '$1 == ".B" || $1 == ".BR" { print $2 }' |
	sed 's/[,;:.()]*$//' | sort -u >"$TMP/bold"
"$MMTOP" replay -f csv tests/fixtures/format-2.8.rec | head -n 1 | tr ',' '\n' | sort -u >"$TMP/cols"
check "CSV has columns ($(wc -l <"$TMP/cols"))" test "$(wc -l <"$TMP/cols")" -gt 50
for c in $(comm -23 "$TMP/cols" "$TMP/bold"); do fail "CSV column $c is not in $metrics"; done
check "every CSV column is in $metrics" test -z "$(comm -23 "$TMP/cols" "$TMP/bold")"
"$MMTOP" replay -f json tests/fixtures/format-2.8.rec | grep -o '"[a-z_0-9]*":' | tr -d '":' |
	sort -u >"$TMP/keys"
check "JSON has keys ($(wc -l <"$TMP/keys"))" test "$(wc -l <"$TMP/keys")" -gt 50
for k in $(comm -23 "$TMP/keys" "$TMP/bold"); do fail "JSON key $k is not in $metrics"; done
check "every JSON key is in $metrics" test -z "$(comm -23 "$TMP/keys" "$TMP/bold")"

# The recording format's version in mmtop-recording(5) is the one mmtop
# writes (it read 2.4 while mmtop wrote 2.8).
format=man/mmtop-recording.5
major=$(sed -n 's/^#define REC_MAJOR \([0-9]*\).*/\1/p' src/record/recfile.h)
minor=$(sed -n 's/^#define REC_MINOR \([0-9]*\).*/\1/p' src/record/recfile.h)
check "$format: the recording's version is the code's ($major.$minor)" \
	grep -q "^u16 major version ($major), u16 minor version ($minor), u32 zero\.\$" $format
check "$format: what $major.$minor appended is said" grep -q "Appended in $major\.$minor" $format
