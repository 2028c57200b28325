# make install into a DESTDIR: what lands where, and a unit systemd accepts.
. tests/lib.sh

sh scripts/deps.sh systemd >/dev/null || exit 1
make -s install DESTDIR="$TMP/root" PREFIX=/usr >"$TMP/log" 2>&1
rc=$?
check "make install DESTDIR PREFIX=/usr (rc $rc)" test $rc -eq 0
(cd "$TMP/root" && find . -type f | sort) >"$TMP/files"
cat >"$TMP/want" <<'LIST'
./usr/lib/systemd/system/mmtop-serve.service
./usr/sbin/mmtop
./usr/share/man/man8/mmtop.8
LIST
check "installed files: $(tr '\n' ' ' <"$TMP/files")" cmp -s "$TMP/files" "$TMP/want"
unit=$TMP/root/usr/lib/systemd/system/mmtop-serve.service
check "unit starts the installed binary as an exporter" \
	grep -qx 'ExecStart=/usr/sbin/mmtop serve --listen 127.0.0.1:9794' "$unit"
check "unit is not enabled (no symlink under multi-user.target.wants)" \
	test ! -e "$TMP/root/etc/systemd/system/multi-user.target.wants/mmtop-serve.service"
# systemd-analyze wants the binary where ExecStart says: point it into DESTDIR.
mkdir -p "$TMP/units"
sed "s|/usr/sbin/mmtop|$TMP/root/usr/sbin/mmtop|" "$unit" >"$TMP/units/mmtop-serve.service"
systemd-analyze verify --man=no "$TMP/units/mmtop-serve.service" >"$TMP/verify" 2>&1
rc=$?
check "systemd-analyze verify accepts the unit (rc $rc: $(head -c 200 "$TMP/verify"))" test $rc -eq 0
make -s install DESTDIR="$TMP/local" >/dev/null 2>&1
check "default PREFIX /usr/local: the unit names /usr/local/sbin/mmtop" \
	grep -q '^ExecStart=/usr/local/sbin/mmtop serve' "$TMP/local/usr/local/lib/systemd/system/mmtop-serve.service"
