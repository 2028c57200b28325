# The Debian package (debian/), as a fleet installs it: built from the
# tracked files as a clean checkout has them, linted, installed with apt,
# run, and removed, then purged; the arm64 package cross-built the way
# Debian does it (dpkg-buildpackage -aarm64) and inspected.
. tests/lib.sh

if ! command -v dpkg-buildpackage >/dev/null; then
	skip "package: no dpkg-buildpackage here (not Debian)"
	exit 0
fi
sh scripts/deps.sh debhelper lintian man-db >/dev/null 2>&1 ||
	{ fail "package: debhelper, lintian and man-db could not be installed"; exit 0; }
[ "$(id -u)" -eq 0 ] || { skip "package: installing it needs root"; exit 0; }
if dpkg-query -W -f='${Status}' mmtop 2>/dev/null | grep -q "ok installed"; then
	skip "package: mmtop is installed as a package on this machine; the test would replace it"
	exit 0
fi

version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
src=$TMP/pkg/mmtop-$version
mkdir -p "$src"
git ls-files -z | xargs -0 cp --parents -t "$src"
# A tree of its own, to see what the build leaves in it.
(cd "$src" && git init -q && git add -A &&
	git -c user.name=mmtop -c user.email=mmtop@localhost commit -qm tree)

# build ARCH: the package for ARCH (the host's, or a cross build).
build() {
	cross=
	[ "$1" != "$(dpkg --print-architecture)" ] && cross=-a$1
	(cd "$src" && dpkg-buildpackage $cross -us -uc -b) >"$TMP/build-$1" 2>&1
	deb=$TMP/pkg/mmtop_${version}_$1.deb
	check "package $1: dpkg-buildpackage${cross:+ $cross} builds $(basename "$deb") ($(tail -n 1 "$TMP/build-$1"))" \
		test -s "$deb"
	lintian -L ">=warning" --fail-on error,warning "$deb" >"$TMP/lint-$1" 2>&1
	rc=$?
	check "package $1: lintian, no error or warning (exit $rc: $(grep -v '^running with root' "$TMP/lint-$1" | tr '\n' '|'))" \
		test "$rc" -eq 0
	dpkg-deb -I "$deb" | grep -E '^ (Version|Architecture|Depends):' | sed "s/^/# [$1]/"
}

host=$(dpkg --print-architecture)
build "$host"
left=$(cd "$src" && git status --porcelain | tr '\n' ' ')
check "package: the build leaves the tree clean (git status: ${left:-nothing})" test -z "$left"
deb=$TMP/pkg/mmtop_${version}_$host.deb
files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ { sub(/^\./, "", $6); print $6 }')

# Installed as a fleet would: apt, then the command, its man page and its
# units, which are there but neither enabled nor started.
apt-get install -y -qq "$deb" >"$TMP/install" 2>&1
rc=$?
check "package: apt install ./$(basename "$deb") (exit $rc)" test "$rc" -eq 0
/usr/sbin/mmtop probe >"$TMP/probe" 2>&1
check "package: /usr/sbin/mmtop probe: $(tail -n 1 "$TMP/probe")" \
	grep -qx "default probe set: can run" "$TMP/probe"
for p in man/*.[578]; do
	page=${p#man/}
	check "package: man ${page%.*} finds $(man -w "${page##*.}" "${page%.*}" 2>&1)" \
		test "$(man -w "${page##*.}" "${page%.*}" 2>&1)" = "/usr/share/man/man${page##*.}/$page.gz"
done
check "package: the version is debian/changelog's in the binary and the man page ($version)" \
	sh -c "/usr/sbin/mmtop --version | grep -qx 'mmtop $version' &&
		zcat /usr/share/man/man8/mmtop.8.gz | grep -q '^\.TH .*\"mmtop $version\"'"
units="/lib/systemd/system/mmtop-serve.service /lib/systemd/system/mmtop-record.service"
# shellcheck disable=SC2086
systemd-analyze verify $units >"$TMP/verify" 2>&1
rc=$?
check "package: systemd-analyze verify accepts both units (exit $rc: $(tr '\n' '|' <"$TMP/verify"))" \
	test "$rc" -eq 0 -a ! -s "$TMP/verify"
enabled=$(ls /etc/systemd/system/*.wants/mmtop-* 2>/dev/null)
check "package: the units are not enabled (${enabled:-no links})" test -z "$enabled"
check "package: /var/log/mmtop is root's, mode 0700 ($(stat -c '%U %a' /var/log/mmtop))" \
	test "$(stat -c '%U %a' /var/log/mmtop)" = "root 700"

# Removed, nothing is left but the recordings; purged, not even those.
echo recording >/var/log/mmtop/kept.rec
apt-get remove -y -qq mmtop >"$TMP/remove" 2>&1
left=$(for f in $files; do [ -e "$f" ] && echo "$f"; done)
check "package: apt remove leaves none of its files (${left:-none}) but the recordings" \
	test -z "$left" -a -e /var/log/mmtop/kept.rec
apt-get purge -y -qq mmtop >"$TMP/purge" 2>&1
check "package: apt purge removes the recordings too, and the package" \
	sh -c "test ! -e /var/log/mmtop && ! dpkg-query -W mmtop >/dev/null 2>&1"

# arm64, cross-built from x86_64: an AArch64 binary with arm64 dependencies.
[ "$host" = amd64 ] || exit 0
build arm64
deb=$TMP/pkg/mmtop_${version}_arm64.deb
dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/sbin/mmtop >"$TMP/mmtop-arm64" 2>/dev/null
check "package arm64: its /usr/sbin/mmtop is AArch64 ($(readelf -h "$TMP/mmtop-arm64" 2>&1 | grep Machine | tr -s ' '))" \
	sh -c "readelf -h '$TMP/mmtop-arm64' | grep -q AArch64"
check "package arm64: Architecture arm64, depending on libbpf1 and the rest by dpkg-shlibdeps" \
	sh -c "dpkg-deb -f '$deb' Architecture | grep -qx arm64 && dpkg-deb -f '$deb' Depends | grep -q libbpf1"
