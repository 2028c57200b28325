# The build explains a kernel without BTF instead of failing obscurely.
. tests/lib.sh

make -s OUT="$TMP/build" BTF=/nonexistent/vmlinux "$TMP/build/vmlinux.h" >"$TMP/out" 2>&1
rc=$?
check "build without BTF fails (got $rc)" test "$rc" -ne 0
check "build without BTF names CONFIG_DEBUG_INFO_BTF" grep -q "CONFIG_DEBUG_INFO_BTF=y" "$TMP/out"
