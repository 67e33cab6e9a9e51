# shellcheck shell=bash
# apt.sh — sourced by the scripts that install Debian packages. Set
# SCRIPT_NAME before sourcing; messages are prefixed with it.

# as_root runs a command as root: directly when we are root, else through
# non-interactive sudo.
as_root() {
	if [[ "$(id -u)" -eq 0 ]]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo -n "$@"
	else
		echo "${SCRIPT_NAME:-scripts}: need root or sudo to run: $*" >&2
		return 1
	fi
}

# apt_install installs Debian packages, refreshing the package lists only
# when the packages cannot be installed from the lists already present. It
# is quiet on success and shows apt's output on failure.
apt_install() {
	command -v apt-get >/dev/null 2>&1 || {
		echo "${SCRIPT_NAME:-scripts}: apt-get not found; install $* by hand" >&2
		return 1
	}
	echo "${SCRIPT_NAME:-scripts}: installing $* from Debian"
	local log
	log="$(mktemp)"
	export DEBIAN_FRONTEND=noninteractive
	if ! as_root apt-get install -y -q --no-install-recommends "$@" >"$log" 2>&1; then
		if ! { as_root apt-get update -q && as_root apt-get install -y -q --no-install-recommends "$@"; } >>"$log" 2>&1; then
			cat "$log" >&2
			rm -f "$log"
			echo "${SCRIPT_NAME:-scripts}: could not install $*" >&2
			return 1
		fi
	fi
	rm -f "$log"
	hash -r
}
