#!/usr/bin/env bash
# Install the tabletop companion as a service on Raspberry Pi OS; run it again to update.
#
#   sudo systemd/install.sh              install or update, then (re)start the service
#   sudo systemd/install.sh --fleet      the same, for a table in the café's fleet (docs/fleet.md)
#   sudo systemd/install.sh --uninstall  remove the service, its polkit rule, the command and the venv
#                                        (the config and the games and decks are kept)
#
# Every step looks before it acts, so running it twice changes nothing the second
# time; each change it does make is printed. What it sets up:
#   the system user `tabletop` in the gpio, spi, i2c and dialout groups
#   a venv in /opt/tabletop with the package and its `pi` extra
#   /etc/tabletop/config.toml (the commented defaults, never overwritten)
#   SPI, I2C and the UART, as far as that config uses them
#   a polkit rule: the service may restart itself and power the Pi off (staff menu)
#   /etc/systemd/system/tabletop.service, enabled and started
#   /usr/local/bin/tabletop: the command, run as the service's user on its games and decks
set -euo pipefail

SERVICE_USER=tabletop
GROUPS_NEEDED=(gpio spi i2c dialout)
VENV=/opt/tabletop
CONFIG_DIR=/etc/tabletop
CONFIG=$CONFIG_DIR/config.toml
STATE_DIR=/var/lib/tabletop
UNIT=/etc/systemd/system/tabletop.service
POLKIT_RULE=/etc/polkit-1/rules.d/50-tabletop.rules
COMMAND=/usr/local/bin/tabletop
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REBOOT_NEEDED=0
CHANGES=0

say() { printf '%s\n' "$*"; }
changed() { printf '  changed: %s\n' "$*"; CHANGES=$((CHANGES + 1)); }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

usage() {
    sed -n '2,6p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

boot_file() {
    # Bookworm keeps the firmware files in /boot/firmware; older releases in /boot.
    local name=$1
    if [[ -f /boot/firmware/$name ]]; then
        printf '%s\n' "/boot/firmware/$name"
    else
        printf '%s\n' "/boot/$name"
    fi
}

# ---- the user ----------------------------------------------------------------------------

ensure_user() {
    say "User $SERVICE_USER"
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        if ! getent group "$group" >/dev/null; then
            groupadd --system "$group"
            changed "created group $group"
        fi
    done
    if ! id "$SERVICE_USER" >/dev/null 2>&1; then
        useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin "$SERVICE_USER"
        changed "created system user $SERVICE_USER"
    fi
    for group in "${GROUPS_NEEDED[@]}"; do
        if ! id -nG "$SERVICE_USER" | tr ' ' '\n' | grep -qx "$group"; then
            usermod -a -G "$group" "$SERVICE_USER"
            changed "added $SERVICE_USER to group $group"
        fi
    done
}

# ---- the program -------------------------------------------------------------------------

ensure_venv() {
    say "Program in $VENV"
    local packages=() package
    for package in python3-venv python3-pip python3-lgpio python3-spidev; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            packages+=("$package")
        fi
    done
    if ((${#packages[@]})); then
        apt-get install -y --no-install-recommends "${packages[@]}"
        changed "installed ${packages[*]}"
    fi
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
        die "Python 3.11 or newer is needed (Raspberry Pi OS bookworm or later)"
    if [[ ! -x $VENV/bin/python ]]; then
        # the system's lgpio and spidev are built for this board: let the venv see them
        python3 -m venv --system-site-packages "$VENV"
        changed "created the venv $VENV"
    fi
    local stamp
    stamp=$(source_stamp)
    if [[ ! -f $VENV/.installed-from ]] || [[ $(cat "$VENV/.installed-from") != "$stamp" ]]; then
        "$VENV/bin/pip" install --quiet --upgrade "${SOURCE}[pi]"
        "$VENV/bin/python" -m compileall -q "$VENV/lib" >/dev/null || true
        printf '%s\n' "$stamp" > "$VENV/.installed-from"
        changed "installed $("$VENV/bin/pip" show tabletop-companion | grep '^Version')"
    fi
}

source_stamp() {
    # a fingerprint of the source, so an unchanged tree is not reinstalled
    (cd "$SOURCE" && find pyproject.toml engine hardware device seeds -type f \
        ! -name '*.pyc' -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-64)
}

ensure_config() {
    say "Config $CONFIG"
    if [[ ! -f $CONFIG ]]; then
        install -d -m 0755 "$CONFIG_DIR"
        "$VENV/bin/tabletop" config --example > "$CONFIG.new"
        install -m 0640 -o root -g "$SERVICE_USER" "$CONFIG.new" "$CONFIG"
        rm -f "$CONFIG.new"
        changed "wrote the default config (edit it, then: systemctl restart tabletop)"
    fi
    "$VENV/bin/tabletop" config --check "$CONFIG" || die "fix $CONFIG, then run this again"
}

# ---- the buses ---------------------------------------------------------------------------

buses_in_use() {
    # SPI0, I2C1, UART0...: the buses the configured parts are wired to
    "$VENV/bin/python" - "$CONFIG" <<'PYTHON'
import sys
from pathlib import Path

from device.config import load_config
from device.pins import buses

print(" ".join(sorted(buses(load_config(Path(sys.argv[1]))))))
PYTHON
}

config_line() {
    # Make sure config.txt has `line` (e.g. dtparam=spi=on), printing the change.
    local line=$1 file
    file=$(boot_file config.txt)
    [[ -f $file ]] || { say "  no $file: set $line by hand"; return; }
    if ! grep -qx "$line" "$file"; then
        printf '%s\n' "$line" >> "$file"
        changed "added '$line' to $file"
        REBOOT_NEEDED=1
    fi
}

enable_bus() {
    # raspi-config also loads the kernel modules; without it, config.txt is edited.
    local bus=$1 raspi=$2 line=$3
    if command -v raspi-config >/dev/null; then
        if [[ $(raspi-config nonint "get_$raspi") != 0 ]]; then
            raspi-config nonint "do_$raspi" 0
            changed "enabled $bus (raspi-config nonint do_$raspi 0)"
            REBOOT_NEEDED=1
        fi
    else
        config_line "$line"
    fi
}

free_uart() {
    # The PN532 needs the UART to itself: no login console on it.
    local cmdline
    cmdline=$(boot_file cmdline.txt)
    if command -v raspi-config >/dev/null; then
        enable_bus UART serial_hw enable_uart=1
        if [[ $(raspi-config nonint get_serial_cons) == 0 ]]; then
            raspi-config nonint do_serial_cons 1
            changed "removed the serial console (raspi-config nonint do_serial_cons 1)"
            REBOOT_NEEDED=1
        fi
    else
        config_line enable_uart=1
        if [[ -f $cmdline ]] && grep -Eq 'console=(serial0|ttyAMA0|ttyS0),[0-9]+ ?' "$cmdline"; then
            sed -E -i 's/console=(serial0|ttyAMA0|ttyS0),[0-9]+ ?//' "$cmdline"
            changed "removed the serial console from $cmdline"
            REBOOT_NEEDED=1
        fi
    fi
}

ensure_buses() {
    local buses
    buses=$(buses_in_use)
    say "Buses the config uses: ${buses:-none}"
    [[ $buses == *SPI* ]] && enable_bus SPI spi dtparam=spi=on
    [[ $buses == *I2C* ]] && enable_bus I2C i2c dtparam=i2c_arm=on
    [[ $buses == *UART* ]] && free_uart
    return 0
}

# ---- the service -------------------------------------------------------------------------

ensure_polkit_rule() {
    say "Polkit rule $POLKIT_RULE"
    local rule
    rule=$(cat <<'RULE'
// The tabletop service may restart itself and power the Pi off (its staff menu), nothing more.
polkit.addRule(function(action, subject) {
    if (subject.user != "tabletop") {
        return polkit.Result.NOT_HANDLED;
    }
    if (action.id == "org.freedesktop.systemd1.manage-units" &&
        action.lookup("unit") == "tabletop.service" && action.lookup("verb") == "restart") {
        return polkit.Result.YES;
    }
    if (action.id == "org.freedesktop.login1.power-off" ||
        action.id == "org.freedesktop.login1.power-off-multiple-sessions") {
        return polkit.Result.YES;
    }
    return polkit.Result.NOT_HANDLED;
});
RULE
)
    if [[ ! -d $(dirname "$POLKIT_RULE") ]]; then
        say "  no polkit rules folder: the staff menu cannot restart or power off"
    elif [[ ! -f $POLKIT_RULE ]] || [[ $(cat "$POLKIT_RULE") != "$rule" ]]; then
        printf '%s\n' "$rule" > "$POLKIT_RULE"
        changed "wrote $POLKIT_RULE"
    fi
}

ensure_service() {
    say "Service $UNIT"
    if ! cmp -s "$SOURCE/systemd/tabletop.service" "$UNIT"; then
        install -m 0644 "$SOURCE/systemd/tabletop.service" "$UNIT"
        systemctl daemon-reload
        changed "installed the unit"
    fi
    if ! systemctl is-enabled --quiet tabletop; then
        systemctl enable tabletop
        changed "enabled the service"
    fi
    # a restart picks up new code and config; the game in progress resumes
    if ((CHANGES)); then
        systemctl restart tabletop
        say "  restarted: systemctl status tabletop; journalctl -u tabletop"
    elif ! systemctl is-active --quiet tabletop; then
        systemctl start tabletop
        changed "started the service"
    else
        say "  running, nothing changed"
    fi
}

ensure_command() {
    say "Command $COMMAND"
    local wrapper
    wrapper=$(cat <<WRAPPER
#!/bin/sh
# tabletop as the service's user, on its state dir (/etc/tabletop/config.toml is found by default)
exec sudo -u $SERVICE_USER env STATE_DIRECTORY=$STATE_DIR $VENV/bin/tabletop "\$@"
WRAPPER
)
    if [[ ! -f $COMMAND ]] || [[ $(cat "$COMMAND") != "$wrapper" ]]; then
        printf '%s\n' "$wrapper" > "$COMMAND"
        chmod 0755 "$COMMAND"
        changed "wrote $COMMAND"
    fi
}

# ---- the café's fleet (--fleet, or [fleet] enabled in the config) -----------------------

ensure_fleet() {
    local dropin=/etc/systemd/system/tabletop.service.d/fleet.conf
    if [[ ${1:-} != --fleet ]] && ! "$VENV/bin/python" -c 'import sys, device.config as c
sys.exit(not c.load_config(c.config_path(None)).fleet.enabled)' 2>/dev/null; then
        return 0
    fi
    say "Fleet: the broker link's package and network"
    if ! "$VENV/bin/python" -c 'import paho.mqtt.client' 2>/dev/null; then
        "$VENV/bin/pip" install --quiet "${SOURCE}[pi,fleet]"
        changed "installed the fleet extra"
    fi
    if ! cmp -s "$SOURCE/systemd/tabletop-fleet.conf" "$dropin"; then
        install -D -m 0644 "$SOURCE/systemd/tabletop-fleet.conf" "$dropin"
        systemctl daemon-reload
        changed "installed $dropin"
    fi
}

# ---- uninstall ---------------------------------------------------------------------------

uninstall() {
    say "Removing the tabletop service"
    if [[ -f $UNIT ]]; then
        systemctl disable --now tabletop || true
        rm -f "$UNIT"
        systemctl daemon-reload
        changed "removed $UNIT"
    fi
    local file
    for file in "$POLKIT_RULE" "$COMMAND"; do
        if [[ -f $file ]]; then
            rm -f "$file"
            changed "removed $file"
        fi
    done
    if [[ -d $VENV ]]; then
        rm -rf "$VENV"
        changed "removed $VENV"
    fi
    say "Kept: $CONFIG_DIR (config), $STATE_DIR (games and decks), the user $SERVICE_USER"
    say "and the bus settings; remove them by hand if they are no longer wanted."
}

main() {
    case ${1:-} in
        -h|--help) usage; exit 0 ;;
        --uninstall|--fleet) ;;
        "") ;;
        *) usage >&2; exit 2 ;;
    esac
    [[ $EUID -eq 0 ]] || die "run it as root: sudo $0 ${1:-}"
    if [[ ${1:-} == --uninstall ]]; then
        uninstall
        return
    fi
    ensure_user
    ensure_venv
    ensure_config
    ensure_buses
    ensure_polkit_rule
    ensure_command
    ensure_fleet "${1:-}"
    ensure_service
    if ((REBOOT_NEEDED)); then
        say "Reboot for the bus changes to take effect: sudo reboot"
    fi
    say "Check the table: sudo systemctl stop tabletop; tabletop doctor; sudo systemctl start tabletop"
}

main "$@"
