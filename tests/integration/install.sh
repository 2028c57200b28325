# make install into a DESTDIR: what lands where, units systemd accepts,
# uninstall removing exactly that; plain make installing no package.
. tests/lib.sh

sh scripts/deps.sh systemd >/dev/null || exit 1
make -s install DESTDIR="$TMP/root" PREFIX=/usr >"$TMP/log" 2>&1
rc=$?
check "make install DESTDIR PREFIX=/usr (rc $rc)" test $rc -eq 0
(cd "$TMP/root" && find . -type f | sort) >"$TMP/files"
# Every page of man/ in its section's directory (mmtop-recording.5 in man5).
{
	cat <<'LIST'
./usr/lib/systemd/system/mmtop-record.service
./usr/lib/systemd/system/mmtop-serve.service
./usr/sbin/mmtop
./usr/share/bash-completion/completions/mmtop
LIST
	for p in man/*.[578]; do
		echo "./usr/share/man/man${p##*.}/${p#man/}.gz"
	done
} | sort >"$TMP/want"
check "installed files: $(tr '\n' ' ' <"$TMP/files")" cmp -s "$TMP/files" "$TMP/want"
check "the pages are installed ($(grep -c /man/ "$TMP/want"), mmtop.8 and mmtop-recording.5 among them)" \
	sh -c "grep -q man8/mmtop.8.gz '$TMP/want' && grep -q man5/mmtop-recording.5.gz '$TMP/want'"
# The installed pages carry the version (debian/changelog's).
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
for p in man/*.[578]; do
	sed "/^\.TH /s/\"mmtop\"/\"mmtop $version\"/" "$p" >"$TMP/man.want"
	check "${p#man/} is gzipped and reads back, with version $version in its title" \
		sh -c "gzip -dc '$TMP/root/usr/share/man/man${p##*.}/${p#man/}.gz' | cmp -s - '$TMP/man.want' &&
			! cmp -s '$p' '$TMP/man.want'"
done
units=$TMP/root/usr/lib/systemd/system
check "serve unit starts the installed binary as an exporter" \
	grep -qx 'ExecStart=/usr/sbin/mmtop serve --listen 127.0.0.1:9794' "$units/mmtop-serve.service"
check "record unit records rotated files under /var/log/mmtop" \
	grep -qx 'ExecStart=/usr/sbin/mmtop record -o /var/log/mmtop --rotate 1h --keep 168' \
	"$units/mmtop-record.service"
check "no unit is enabled (nothing under /etc)" test ! -e "$TMP/root/etc"
# systemd-analyze wants the binary where ExecStart says: point it into DESTDIR.
mkdir -p "$TMP/units"
for u in mmtop-serve mmtop-record; do
	sed "s|/usr/sbin/mmtop|$TMP/root/usr/sbin/mmtop|" "$units/$u.service" >"$TMP/units/$u.service"
	systemd-analyze verify --man=no "$TMP/units/$u.service" >"$TMP/verify" 2>&1
	rc=$?
	check "systemd-analyze verify accepts $u.service (rc $rc: $(head -c 200 "$TMP/verify"))" test $rc -eq 0
done
make -s uninstall DESTDIR="$TMP/root" PREFIX=/usr >/dev/null 2>&1
check "make uninstall removes every file install put there ($(cd "$TMP/root" && find . -type f | wc -l) left)" \
	test "$(cd "$TMP/root" && find . -type f | wc -l)" -eq 0
make -s install DESTDIR="$TMP/local" >/dev/null 2>&1
check "default PREFIX /usr/local: the unit names /usr/local/sbin/mmtop" \
	grep -q '^ExecStart=/usr/local/sbin/mmtop serve' "$TMP/local/usr/local/lib/systemd/system/mmtop-serve.service"
# A from-scratch build only checks for packages; make deps installs them.
make --no-print-directory -n -B mmtop 2>/dev/null | grep 'deps.sh' >"$TMP/deps"
check "plain make only checks dependencies ($(tr '\n' ' ' <"$TMP/deps"))" \
	sh -c "test -s '$TMP/deps' && ! grep -qv 'deps.sh --check' '$TMP/deps'"
for t in run test bench; do
	check "make $t installs what is missing first" \
		sh -c "make --no-print-directory -n $t 2>/dev/null | head -n 1 | grep -q 'sh scripts/deps.sh$'"
done

# A cross build installs for its own machine: DESTDIR stages the arm64
# binary (on x86_64 hosts, which have the cross compiler: make test).
if [ "$(uname -m)" = x86_64 ]; then
	make -s ARCH=arm64 install DESTDIR="$TMP/arm64" PREFIX=/usr >"$TMP/log" 2>&1
	check "make ARCH=arm64 install stages an arm64 binary ($(tail -n 2 "$TMP/log" | tr '\n' ' '))" \
		sh -c "readelf -h '$TMP/arm64/usr/sbin/mmtop' | grep -q AArch64"
fi
