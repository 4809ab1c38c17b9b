# boot-handover's first unit in the guest (run by bash, not sourced; not a case): before
# plymouth-start.service, installs what `scripts/install.sh` would, from the host's files: the
# binary, the dialkiosk user (sysusers), the example configuration, and `dialkiosk splash`'s
# theme as Plymouth's theme.
# Usage: bash boot-handover-prep.sh BINARY REPOSITORY THEME_DIR [THEME_NAME]
# THEME_NAME: another installed theme instead (e.g. spinner, to compare boot times).
set -eu
bin="$1" repo="$2" theme="$3" name="${4:-dialkiosk}"
install -D -m 0755 "$bin" /usr/local/bin/dialkiosk
systemd-sysusers "$repo/systemd/dialkiosk.conf"
install -D -m 0644 "$repo/systemd/dialkiosk.yaml" /etc/dialkiosk/config.yaml
# As README "Boot" says, minus the initramfs (this guest boots without one of Plymouth's).
mkdir -p /usr/share/plymouth/themes /etc/plymouth
rm -rf /usr/share/plymouth/themes/dialkiosk
cp -r "$theme" /usr/share/plymouth/themes/dialkiosk
printf '[Daemon]\nTheme=%s\nShowDelay=0\n' "$name" >/etc/plymouth/plymouthd.conf
echo "boot-handover-prep: installed $bin, user dialkiosk, theme $theme"
