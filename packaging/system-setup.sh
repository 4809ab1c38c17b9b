# The steps that make the unit runnable, shared by scripts/install.sh (source installs) and the
# package's postinst (which sources the copy installed as /usr/lib/dialkiosk/system-setup.sh),
# so the two ways onto a kiosk cannot drift apart where no debhelper helper does the step for
# the package (the configuration, the backlights). POSIX sh (postinst runs under /bin/sh); each
# step is safe to repeat. `dk_run` stands for /run in the tests.
: "${dk_run:=/run}"

# dk_create_user FILE [ROOT]: the dialkiosk user and groups from the sysusers file (a path, or a
# name systemd-sysusers looks up in its directories). It only edits ROOT's /etc/passwd and
# /etc/group: no running systemd is needed. (The package's is dh_installsysusers'.)
dk_create_user() {
	if [ -n "${2:-}" ]; then systemd-sysusers --root="$2" "$1"; else systemd-sysusers "$1"; fi
}

# dk_install_config EXAMPLE TARGET: TARGET made from EXAMPLE (mode 0644, its directory 0755)
# when TARGET does not exist; an existing one, edited or not, is left alone. Written to a
# temporary name and renamed, so an interrupted run never leaves half a file behind.
dk_install_config() {
	[ -e "$2" ] && return 0
	mkdir -p "$(dirname "$2")"
	chmod 0755 "$(dirname "$2")"
	cp "$1" "$2.dpkg-new-tmp"
	chmod 0644 "$2.dpkg-new-tmp"
	mv "$2.dpkg-new-tmp" "$2"
}

# dk_trigger_backlights: the backlight rule read again and applied to the backlights already
# present (new ones get it as they appear); only with a running udev.
dk_trigger_backlights() {
	[ -d "$dk_run/udev" ] || return 0
	udevadm control --reload >/dev/null 2>&1 || true
	udevadm trigger --subsystem-match=backlight --action=add >/dev/null 2>&1 || true
}

# dk_enable_unit source [ROOT]: dialkiosk.service enabled with systemctl, under ROOT (a staging
# root, or / when systemd does not run here: the symlink only). The package's enabling is
# dh_installsystemd's (packaging/debhelper.sh).
dk_enable_unit() {
	case "$1" in
	source)
		if [ "${2:-/}" = / ] && [ -d "$dk_run/systemd/system" ]; then
			systemctl enable dialkiosk.service
		else
			systemctl --root="${2:-/}" enable dialkiosk.service
		fi
		;;
	*)
		echo "dk_enable_unit: source, not '$1'" >&2
		return 64
		;;
	esac
}
