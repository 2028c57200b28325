# The build explains a kernel without BTF instead of failing obscurely.
. tests/lib.sh

make -s OUT="$TMP/build" BTF=/nonexistent/vmlinux "$TMP/build/vmlinux.h" >"$TMP/out" 2>&1
rc=$?
check "build without BTF fails (got $rc)" test "$rc" -ne 0
check "build without BTF names CONFIG_DEBUG_INFO_BTF" grep -q "CONFIG_DEBUG_INFO_BTF=y" "$TMP/out"

# Layering is enforced by the compiler: each folder's objects are built
# with the include path of its layer, and the fences make a forbidden
# header an error. The compile command is the real rule's (make -n).
compile_as() { # compile_as OBJECT HEADER: compile a file including HEADER with OBJECT's flags
	cmd=$(make -s -n -B OUT="$TMP/fence" "$TMP/fence/$1" | grep -- " -o $TMP/fence/$1$")
	printf '#include <%s>\nint fence_probe;\n' "$2" >"$TMP/probe.c"
	cmd=$(echo "$cmd" | sed "s| -c [^ ]*\.c | -c $TMP/probe.c |; s| -MMD -MP||; s| -o [^ ]*$| -o $TMP/probe.o|")
	eval "$cmd" >"$TMP/fence.out" 2>&1
}
for o in ui/draw.o src/output/output_json.o src/model/snapshot.o src/record/recfile.o; do
	compile_as "$o" bpf/libbpf.h
	check "$o's folder cannot include <bpf/libbpf.h>" grep -q "talk to libbpf" "$TMP/fence.out"
done
for o in src/collect/collect.o src/output/output_text.o src/record/recorder.o; do
	compile_as "$o" curses.h
	check "$o's folder cannot include <curses.h>" grep -q "draws on the terminal" "$TMP/fence.out"
done
compile_as src/collect/locks/lock_source.o bpf/libbpf.h
check "the collector can include <bpf/libbpf.h>" test ! -s "$TMP/fence.out"

# Header dependencies: after a full build nothing is left to do, and a
# header made new (make -W, the tree is not touched) rebuilds exactly the
# objects that include it.
out="$TMP/deps"
make -s -j2 OUT="$out" objects >"$TMP/build.out" 2>&1
check "the objects build in a fresh tree" test "$?" -eq 0
check "after a build nothing is left to do" make -q OUT="$out" objects
for h in ui/ui.h src/record/crc32.h src/modes/serve.h; do
	want=$(grep -l "#include \"${h##*/}\"" src/*.c src/*/*.c ui/*.c | sed 's/\.c$/.o/' | sort | tr '\n' ' ')
	got=$(make -n -W "$h" OUT="$out" objects | sed -n "s|.* -o $out/\([^ ]*\.o\)$|\1|p" | sort | tr '\n' ' ')
	check "a newer $h rebuilds its includers only ($got)" test "$got" = "$want"
done
