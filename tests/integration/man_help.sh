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
