# Sourced by scripts/test and .ci/run. `part NAME COMMAND...` runs a command under a "== NAME" heading and notes how
# long it took. `parts_list STATUS`, called as the script ends, passing or failing (from its EXIT trap), lists every
# part it ran with its minutes and seconds, and the part a failure stopped, so each run says what each step costs
# (docs/ci.md keeps the table).
parts_done=()
parts_started=$SECONDS
parts_current=""

part() {
    local name=$1 start=$SECONDS
    shift
    echo "== $name"
    parts_current=$name
    "$@"
    parts_current=""
    parts_done+=("$(parts_clock $((SECONDS - start)))  $name")
}

parts_clock() {
    printf '%3d:%02d' $(($1 / 60)) $(($1 % 60))
}

parts_list() {
    local status=$1 line
    echo "== ${parts_title:-time taken} (min:sec)"
    for line in "${parts_done[@]}"; do
        echo "  $line"
    done
    if [ "$status" != 0 ]; then
        echo "  stopped by a failure${parts_current:+ in: $parts_current}"
    fi
    echo "  $(parts_clock $((SECONDS - parts_started)))  in all"
}
