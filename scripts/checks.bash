# Shared by the scripts that check what an operator installs (check-release, check-image, check-deb,
# check-archive): each check prints "ok   NAME" or "FAIL NAME" with what it saw; `finish` prints
# "N passed, N failed" last and exits non-zero on any failure. Source it; it keeps its counts in globals.
passed=0
failed=0

pass() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; [[ -n "${2:-}" ]] && sed 's/^/     /' <<<"$2"; return 0; }
# expect NAME TEXT PATTERN...: passes when TEXT matches every grep PATTERN, else shows TEXT.
expect() {
  local name=$1 text=$2 pattern
  shift 2
  for pattern in "$@"; do
    grep -q -e "$pattern" <<<"$text" || { fail "$name" "$text"; return 0; }
  done
  pass "$name"
}
# check NAME COMMAND...: passes when COMMAND exits 0, else shows its output.
check() {
  local name=$1 output
  shift
  if output=$("$@" 2>&1); then pass "$name"; else fail "$name (exit $?)" "$output"; fi
}

finish() {
  echo "$passed passed, $failed failed"
  ((failed == 0))
  exit
}

# A free TCP port on loopback.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_for SECONDS COMMAND...: runs COMMAND every 0.2 s until it succeeds or SECONDS pass; its status.
wait_for() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || return 1
    sleep 0.2
  done
}
