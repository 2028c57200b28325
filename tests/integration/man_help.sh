# Every long option in --help is in man/mmtop.8, and every one in the man
# page is in --help.
. tests/lib.sh

"$MMTOP" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u >"$TMP/help"
sed 's/\\-/-/g' man/mmtop.8 | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u >"$TMP/man"
check "--help lists options ($(wc -l <"$TMP/help"))" test -s "$TMP/help"
for o in $(comm -23 "$TMP/help" "$TMP/man"); do fail "$o is in --help but not in man/mmtop.8"; done
for o in $(comm -13 "$TMP/help" "$TMP/man"); do fail "$o is in man/mmtop.8 but not in --help"; done
check "--help and man/mmtop.8 list the same long options" cmp -s "$TMP/help" "$TMP/man"
for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS OUTPUT "EXIT STATUS" FILES EXAMPLES "SEE ALSO"; do
	check "man page has section $s" grep -q "^\.SH \"*$s\"*\$" man/mmtop.8
done

# Every CSV column (those the row tables add among them) and every JSON key
# of a row is in the man page, as a word in bold (.B or .BR). A recording
# of every row type replays without BPF.
sed 's/\\-/-/g; s/\\(dq//g' man/mmtop.8 | awk '$1 == ".B" || $1 == ".BR" { print $2 }' |
	sed 's/[,;:.()]*$//' | sort -u >"$TMP/bold"
"$MMTOP" replay -f csv tests/fixtures/format-2.8.rec | head -n 1 | tr ',' '\n' | sort -u >"$TMP/cols"
check "CSV has columns ($(wc -l <"$TMP/cols"))" test "$(wc -l <"$TMP/cols")" -gt 50
for c in $(comm -23 "$TMP/cols" "$TMP/bold"); do fail "CSV column $c is not in man/mmtop.8"; done
check "every CSV column is in man/mmtop.8" test -z "$(comm -23 "$TMP/cols" "$TMP/bold")"
"$MMTOP" replay -f json tests/fixtures/format-2.8.rec | grep -o '"[a-z_0-9]*":' | tr -d '":' |
	sort -u >"$TMP/keys"
check "JSON has keys ($(wc -l <"$TMP/keys"))" test "$(wc -l <"$TMP/keys")" -gt 50
for k in $(comm -23 "$TMP/keys" "$TMP/bold"); do fail "JSON key $k is not in man/mmtop.8"; done
check "every JSON key is in man/mmtop.8" test -z "$(comm -23 "$TMP/keys" "$TMP/bold")"

# The recording format's version in the man page is the one mmtop writes
# (it read 2.4 while mmtop wrote 2.8).
major=$(sed -n 's/^#define REC_MAJOR \([0-9]*\).*/\1/p' src/record/recfile.h)
minor=$(sed -n 's/^#define REC_MINOR \([0-9]*\).*/\1/p' src/record/recfile.h)
check "man page: the recording's version is the code's ($major.$minor)" \
	grep -q "^u16 major version ($major), u16 minor version ($minor), u32 zero\.\$" man/mmtop.8
check "man page: what $major.$minor appended is said" grep -q "Appended in $major\.$minor" man/mmtop.8
