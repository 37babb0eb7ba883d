#!/bin/sh
# Installs or upgrades the game server manager's agent (gsm-agent) on this machine. Served by the service at
# /agent/install.sh; run by the line a machine's registration answers (`install.command`), which downloads it into a
# fresh `mktemp -d` directory, checks its SHA-256 and runs it as root (with sudo only when not root already):
#   printf '%s\n' 'gsm_install_…' | sh "$D/install.sh" --url https://panel.example.org
# Standard input carries the line's single-use registration code, which `gsm-agent install` exchanges for the agent
# token (or an agent token itself, with --machine-id); neither is ever put on a command line.
# Options: --url URL (required), --machine-id ID (with a token), --prefix DIR (default /opt/gsm-agent), --upgrade
# (replace the package and restart the agent; no token needed). Other options are passed on to `gsm-agent install`.
# GSM_NODE names the Node.js to use; GSM_AGENT_PREFIX, GSM_CONFIG, GSM_DATA_DIR and GSM_UNIT_DIR change the defaults.
set -eu

URL=""
MACHINE_ID=""
PREFIX="${GSM_AGENT_PREFIX:-/opt/gsm-agent}"
UPGRADE=0
PASS=""

say() { printf 'gsm-agent: %s\n' "$*"; }
die() { printf 'gsm-agent: error: %s\n' "$*" >&2; exit 1; }
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --url) [ $# -ge 2 ] || die "--url needs a value"; URL="$2"; shift 2 ;;
    --machine-id) [ $# -ge 2 ] || die "--machine-id needs a value"; MACHINE_ID="$2"; shift 2 ;;
    --prefix) [ $# -ge 2 ] || die "--prefix needs a value"; PREFIX="$2"; shift 2 ;;
    --upgrade) UPGRADE=1; shift ;;
    --no-start|--allow-root) PASS="$PASS $1"; shift ;;
    --*) [ $# -ge 2 ] || die "$1 needs a value"; PASS="$PASS $1 $(quote "$2")"; shift 2 ;;
    *) die "unexpected argument: $1" ;;
  esac
done
[ -n "$URL" ] || die "--url is required (the service's address)"
URL="${URL%/}"

NODE="${GSM_NODE:-$(command -v node || true)}"
[ -n "$NODE" ] || die "Node.js 20 or newer is required: install it from your distribution or https://nodejs.org, then run this again"
MAJOR="$("$NODE" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
[ "$MAJOR" -ge 20 ] 2>/dev/null || die "Node.js 20 or newer is required ($NODE is $("$NODE" --version 2>/dev/null || echo unknown))"

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
say "downloading $URL/agent/package.tgz"
if command -v curl >/dev/null 2>&1; then
  curl -fsSL "$URL/agent/package.tgz" -o "$WORK/package.tgz" || die "could not download the agent package from $URL"
elif command -v wget >/dev/null 2>&1; then
  wget -q -O "$WORK/package.tgz" "$URL/agent/package.tgz" || die "could not download the agent package from $URL"
else
  die "curl or wget is required"
fi
tar -xzf "$WORK/package.tgz" -C "$WORK" || die "the downloaded package is not a valid archive"
[ -f "$WORK/package/gsm-agent.mjs" ] || die "the downloaded package holds no gsm-agent.mjs"

# The new version goes next to the old one and replaces it in one rename: a running agent never reads a half-written file.
PARENT="$(dirname "$PREFIX")"
mkdir -p "$PARENT"
NEXT="$PREFIX.new.$$"
rm -rf "$NEXT"
cp -R "$WORK/package" "$NEXT"
chmod 0755 "$NEXT" "$NEXT/gsm-agent.mjs"
if [ -d "$PREFIX" ]; then
  rm -rf "$PREFIX.old"
  mv "$PREFIX" "$PREFIX.old"
fi
mv "$NEXT" "$PREFIX"
rm -rf "$PREFIX.old"
say "installed gsm-agent $("$NODE" "$PREFIX/gsm-agent.mjs" --version) in $PREFIX"

if [ "$UPGRADE" = 1 ]; then
  if [ -d /run/systemd/system ] && systemctl is-enabled gsm-agent.service >/dev/null 2>&1; then
    systemctl restart gsm-agent.service
    say "restarted gsm-agent.service (game servers keep running)"
  else
    say "restart the agent to run the new version (game servers keep running)"
  fi
  exit 0
fi

# The code (or token) arrives on this script's standard input and goes on to gsm-agent install the same way.
eval "set -- $PASS"
if [ -n "$MACHINE_ID" ]; then set -- --machine-id "$MACHINE_ID" "$@"; fi
# Not exec: the EXIT trap still removes the download directory.
"$NODE" "$PREFIX/gsm-agent.mjs" install --url "$URL" "$@"
