#!/usr/bin/env bash
# The two set-up commands of the README, for a fresh machine that has Node.js and npm:
#
#   bash scripts/run.sh start   starts the portal on its embedded defaults (data in ./data)
#   bash scripts/run.sh demo    the same, with demo accounts and access codes
#   bash scripts/run.sh test    runs every test (installs Chromium and Mosquitto if missing)
#
# Deno itself comes from the npm registry (package "deno") into .tools/ when it is not on
# the PATH already.
set -euo pipefail
cd "$(dirname "$0")/.."

DENO_VERSION="2.9.6"

ensure_deno() {
  if command -v deno >/dev/null 2>&1 && deno --version | head -1 | grep -q "deno ${DENO_VERSION%.*}"; then
    DENO=deno
    return
  fi
  local bin=".tools/node_modules/@deno/linux-x64-glibc/deno"
  if [ "$(uname -m)" = "aarch64" ]; then bin=".tools/node_modules/@deno/linux-arm64-glibc/deno"; fi
  if [ ! -x "$bin" ]; then
    echo "Installing Deno ${DENO_VERSION} from npm into .tools/ ..." >&2
    mkdir -p .tools
    npm install --prefix .tools --no-save --no-audit --no-fund --loglevel=error "deno@${DENO_VERSION}" >&2
  fi
  DENO="$PWD/$bin"
  export PATH="$(dirname "$DENO"):$PATH"
}

apt_install() {
  local pkgs=("$@")
  local sudo=""
  if [ "$(id -u)" != "0" ]; then sudo="sudo"; fi
  echo "Installing ${pkgs[*]} with apt-get ..." >&2
  $sudo apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >&2
}

ensure_test_tools() {
  local need=()
  command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
  command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)
  fc-list 2>/dev/null | grep -qi "dejavu\|noto" || need+=(fonts-dejavu-core)
  if [ ${#need[@]} -gt 0 ]; then apt_install "${need[@]}"; fi
}

cmd="${1:-}"
shift || true
case "$cmd" in
  start)
    ensure_deno
    exec "$DENO" task start "$@"
    ;;
  demo)
    ensure_deno
    exec "$DENO" task demo "$@"
    ;;
  test)
    ensure_deno
    ensure_test_tools
    exec "$DENO" task test "$@"
    ;;
  deno)
    ensure_deno
    exec "$DENO" "$@"
    ;;
  *)
    echo "usage: bash scripts/run.sh start|demo|test|deno [args]" >&2
    exit 2
    ;;
esac
