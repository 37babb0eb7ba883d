#!/bin/sh
# Installs or upgrades the game server manager's agent (gsm-agent) on this machine. Served by the service at
# /agent/install.sh; run by the line a machine's registration answers (`install.command`), which in one root shell
# downloads it into a fresh root-owned `mktemp -d /tmp/gsm.XXXXXX` directory, checks its SHA-256 and runs it:
#   printf '%s\n' 'gsm_install_…' | sh "$D/install.sh" --url https://panel.example.org --package-sha256 <sha-256>
# Standard input carries the line's single-use registration code, which `gsm-agent install` exchanges for the agent
# token (or an agent token itself, with --machine-id; or nothing, to keep the token of an earlier install); neither is
# ever put on a command line. The code is exchanged, with the new package, before the installed package is replaced:
# a refused code changes nothing on the machine.
# Options: --url URL (required), --package-sha256 HEX (the package must have this SHA-256; required unless
# --no-package-check), --machine-id ID (with a token), --prefix DIR (default /opt/gsm-agent), --upgrade (replace the
# package and restart the agent; no token needed). Other options are passed on to `gsm-agent install`.
# GSM_NODE names the Node.js to use; GSM_AGENT_PREFIX, GSM_CONFIG, GSM_DATA_DIR and GSM_UNIT_DIR change the defaults.
set -eu

URL=""
MACHINE_ID=""
PREFIX="${GSM_AGENT_PREFIX:-/opt/gsm-agent}"
UPGRADE=0
PASS=""
PACKAGE_SHA256=""
CHECK_PACKAGE=1

say() { printf 'gsm-agent: %s\n' "$*"; }
die() { printf 'gsm-agent: error: %s\n' "$*" >&2; exit 1; }
quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --url) [ $# -ge 2 ] || die "--url needs a value"; URL="$2"; shift 2 ;;
    --machine-id) [ $# -ge 2 ] || die "--machine-id needs a value"; MACHINE_ID="$2"; shift 2 ;;
    --prefix) [ $# -ge 2 ] || die "--prefix needs a value"; PREFIX="$2"; shift 2 ;;
    --package-sha256) [ $# -ge 2 ] || die "--package-sha256 needs a value"; PACKAGE_SHA256="$2"; shift 2 ;;
    --no-package-check) CHECK_PACKAGE=0; shift ;;
    --upgrade) UPGRADE=1; shift ;;
    --no-start|--allow-root) PASS="$PASS $1"; shift ;;
    --*) [ $# -ge 2 ] || die "$1 needs a value"; PASS="$PASS $1 $(quote "$2")"; shift 2 ;;
    *) die "unexpected argument: $1" ;;
  esac
done
[ -n "$URL" ] || die "--url is required (the service's address)"
URL="${URL%/}"
if [ "$CHECK_PACKAGE" = 1 ]; then
  [ -n "$PACKAGE_SHA256" ] || die "--package-sha256 is required (the SHA-256 the install line names; --no-package-check installs whatever $URL serves)"
  command -v sha256sum >/dev/null 2>&1 || die "sha256sum is required (GNU coreutils) to check the package"
fi
case "$URL" in
  https://*) CURL="curl --proto =https --proto-redir =https -fsSL" ;;
  http://127.0.0.1 | http://127.0.0.1:* | http://localhost | http://localhost:* | http://\[::1\] | http://\[::1\]:*) CURL="curl -fsSL" ;;
  http://*)
    CURL="curl -fsSL"
    printf '%s\n' "gsm-agent: WARNING: $URL is plain http: the registration code, the agent token and the package cross the network unencrypted; anyone on the way can read the token or, had this line not pinned the package's SHA-256, replace what runs as root. Give the service an https PUBLIC_URL." >&2 ;;
  *) die "--url must be an http or https URL" ;;
esac
command -v curl >/dev/null 2>&1 || die "curl is required"

NODE="${GSM_NODE:-$(command -v node || true)}"
[ -n "$NODE" ] || die "Node.js 20 or newer is required: install it from your distribution or https://nodejs.org, then run this again"
MAJOR="$("$NODE" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
[ "$MAJOR" -ge 20 ] 2>/dev/null || die "Node.js 20 or newer is required ($NODE is $("$NODE" --version 2>/dev/null || echo unknown))"

# Under /tmp, not TMPDIR (another account's variable when run through sudo -E): a private directory of this user (root).
WORK="$(mktemp -d /tmp/gsm.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
trap 'exit 1' HUP INT TERM
say "downloading $URL/agent/package.tgz"
$CURL "$URL/agent/package.tgz" -o "$WORK/package.tgz" || die "could not download the agent package from $URL"
if [ "$CHECK_PACKAGE" = 1 ] && [ "$(sha256sum < "$WORK/package.tgz" | cut -d' ' -f1)" != "$PACKAGE_SHA256" ]; then
  die "the downloaded agent package does not match the SHA-256 in the install line; nothing was installed"
fi
tar -xzf "$WORK/package.tgz" -C "$WORK" || die "the downloaded package is not a valid archive"
[ -f "$WORK/package/gsm-agent.mjs" ] || die "the downloaded package holds no gsm-agent.mjs"

eval "set -- $PASS"
if [ "$UPGRADE" = 0 ]; then
  # The code (or token) arrives on this script's standard input. The new program resolves it (a code is exchanged)
  # before anything installed is replaced: a refused code or setting leaves the machine as it was.
  mkdir "$WORK/credentials"
  if [ -n "$MACHINE_ID" ]; then set -- --machine-id "$MACHINE_ID" "$@"; fi
  "$NODE" "$WORK/package/gsm-agent.mjs" install --url "$URL" "$@" --credentials-to "$WORK/credentials" || exit $?
fi

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

# Not exec: the EXIT trap still removes the download directory (and the token file in it). The machine id resolved
# above goes after the passed options, so it wins over a --machine-id among them.
"$NODE" "$PREFIX/gsm-agent.mjs" install --url "$URL" "$@" --machine-id "$(cat "$WORK/credentials/machine-id")" --token-file "$WORK/credentials/token" </dev/null
