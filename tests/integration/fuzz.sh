# The fuzzers build and run (make test builds them): each target for 20 s
# from its seed corpus, so a link failure or a crash in the recording
# reader or the snapshot parser fails the tests. make fuzz runs longer.
[ -n "$(ls build/fuzz/fuzz_* 2>/dev/null)" ] || { echo "FAIL fuzz: no fuzzer built in build/fuzz"; exit 1; }
FUZZ_SECONDS=20 sh tests/fuzz/run.sh
