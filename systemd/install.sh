#!/usr/bin/env bash
# Install the tabletop companion as a service on Raspberry Pi OS; run it again to update.
#
#   sudo systemd/install.sh [OPTIONS]              install or update, then (re)start the service
#   sudo systemd/install.sh --uninstall [--dry-run] remove the service, its polkit rule, the command,
#                                                   its completion and the venv (the config and the
#                                                   games and decks are kept)
#     --reader rc522|pn532      the reader in the config (rc522 on SPI, pn532 on the UART)
#     --display ssd1306|sh1106  the OLED in the config (on I2C)
#     --i2c-khz N               the I2C clock when a part is on I2C, 10 to 400 (default 400, the
#                               most the OLEDs take: a screen update takes a quarter of its time
#                               at the Pi's own 100)
#     --dry-run                 print every change it would make, and make none (root not needed)
#     --no-systemd              install everything but leave the service alone (containers,
#                               chroots, an image being built); the default when systemd is not running
#     --fleet                   a table of the café's fleet (docs/fleet.md): the fleet extra and a
#                               drop-in opening the unit's network to MQTT; also when the config
#                               enables the fleet
#
# Every step looks before it acts, so running it twice changes nothing the second
# time; each change it does make is printed. What it sets up:
#   the system user `tabletop` in the gpio, spi, i2c and dialout groups
#   a venv in /opt/tabletop with the package and its `pi` extra (lgpio and spidev from apt
#   where it has them, else from PyPI inside the venv)
#   /etc/tabletop/config.toml (the commented defaults, never overwritten; --reader and
#   --display set their part's `kind` in it)
#   SPI, I2C (at --i2c-khz) and the UART on GPIO 14/15, as far as that config uses them
#   (on a Pi 5 that UART is uart0, dtparam=uart0=on; before, enable_uart=1)
#   a polkit rule: the service may restart itself and power the Pi off (staff menu)
#   /etc/systemd/system/tabletop.service, enabled and started
#   /usr/local/bin/tabletop: the command, run as the service's user on its games and decks
#   its bash and zsh completion, once the command has `tabletop completion`
#
# TABLETOP_INSTALL_ROOT=DIR puts every file under DIR instead of / (the tests use it
# with stand-in commands on PATH); the programs it runs are still the machine's.
set -euo pipefail

R=${TABLETOP_INSTALL_ROOT:-}
R=${R%/}
SERVICE_USER=tabletop
GROUPS_NEEDED=(gpio spi i2c dialout)
# where things are on the machine (in the command it writes) ...
VENV_PATH=/opt/tabletop
STATE_DIR=/var/lib/tabletop
# ... and the files this script makes (under TABLETOP_INSTALL_ROOT, if set)
VENV=$R$VENV_PATH
CONFIG_DIR=$R/etc/tabletop
CONFIG=$CONFIG_DIR/config.toml
UNIT=$R/etc/systemd/system/tabletop.service
UNIT_LINK=$R/etc/systemd/system/multi-user.target.wants/tabletop.service
POLKIT_RULE=$R/etc/polkit-1/rules.d/50-tabletop.rules
COMMAND=$R/usr/local/bin/tabletop
BASH_COMPLETION=$R/usr/share/bash-completion/completions/tabletop
ZSH_COMPLETION=$R/usr/share/zsh/vendor-completions/_tabletop
FLEET_DROPIN=$R/etc/systemd/system/tabletop.service.d/fleet.conf
HERE=${BASH_SOURCE[0]%/*}
[[ $HERE == "${BASH_SOURCE[0]}" ]] && HERE=.      # started from its own folder
SOURCE=$(cd "$HERE/.." && pwd)
READER=
DISPLAY_KIND=
I2C_KHZ=400
I2C_KHZ_SET=
FLEET=0
DRY_RUN=0
SYSTEMD=1
REBOOT_NEEDED=0
CHANGES=0
CONFIG_READ=
DRAFT=
BUSES=
FLEET_IN_CONFIG=

say() { printf '%s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

changed() {
    if ((DRY_RUN)); then
        printf '  would change: %s\n' "$*"
    else
        printf '  changed: %s\n' "$*"
    fi
    CHANGES=$((CHANGES + 1))
}

act() {
    # Run a command that changes the machine; with --dry-run, print it instead.
    if ((DRY_RUN)); then
        printf '  would run:'
        printf ' %q' "$@"
        printf '\n'
    else
        "$@"
    fi
}

write_file() {
    # write_file FILE MODE CONTENT: FILE gets CONTENT and a newline (with --dry-run: only said).
    # The content is an argument, not stdin: no pipe, cat or wc started for each file.
    local file=$1 mode=$2 content=$3 newlines
    if ((DRY_RUN)); then
        newlines=${content//[!$'\n']/}
        printf '  would write: %s (mode %s, %s lines)\n' "$file" "$mode" "$((${#newlines} + 1))"
        return
    fi
    install -d -m 0755 "${file%/*}"
    printf '%s\n' "$content" > "$file.new"
    if [[ -e $file ]]; then
        # a file written anew keeps the owner and mode it has: the config's group lets the
        # service's user read it, and an owner's own choice stands
        chown --reference="$file" "$file.new"
        chmod --reference="$file" "$file.new"
    else
        chmod "$mode" "$file.new"
    fi
    mv -f "$file.new" "$file"
}

usage() {
    sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

installed_packages() {
    # installed_packages PACKAGE...: INSTALLED gets those of them dpkg has installed, as
    # " name name ", from one dpkg-query for all (one started for each was a program each)
    local name status
    INSTALLED=" "
    while IFS=$'\t' read -r name status; do
        [[ $status == *"install ok installed"* && $INSTALLED != *" $name "* ]] && INSTALLED+="$name "
    done < <(dpkg-query -W -f='${Package}\t${Status}\n' "$@" 2>/dev/null)
    return 0
}

apt_has() {
    # apt_has PACKAGE...: APT_HAS gets those of them apt can install (a candidate to show), as
    # " name name ", from one apt-cache for all
    local line
    APT_HAS=" "
    while IFS= read -r line; do
        [[ $line == "Package: "* ]] && APT_HAS+="${line#Package: } "
    done < <(apt-cache show --no-all-versions "$@" 2>/dev/null)
    return 0
}

has_line() {
    # has_line FILE LINE: FILE has LINE as a whole line (grep -qx for a line without a
    # pattern's characters; the shell reads it, where a grep was a program started each time)
    local line
    while IFS= read -r line || [[ -n $line ]]; do
        [[ $line == "$2" ]] && return 0
    done < "$1"
    return 1
}

boot_file() {
    # Bookworm keeps the firmware files in /boot/firmware; older releases in /boot.
    local name=$1
    if [[ -f $R/boot/firmware/$name ]]; then
        printf '%s\n' "$R/boot/firmware/$name"
    else
        printf '%s\n' "$R/boot/$name"
    fi
}

# ---- the user ----------------------------------------------------------------------------

ensure_user() {
    say "User $SERVICE_USER"
    # one look at the groups there are and one at the user's (a program started each)
    local group entry there=" " member_of
    while IFS=: read -r entry _; do
        there+="$entry "
    done < <(getent group "${GROUPS_NEEDED[@]}")
    for group in "${GROUPS_NEEDED[@]}"; do
        if [[ $there != *" $group "* ]]; then
            act groupadd --system "$group"
            changed "created group $group"
        fi
    done
    # the user's groups, which `id -nG` gives for a user there is: on a repeat run the one look
    # answers both questions (a user with a group of no name fails it, and is asked about again)
    if ! member_of=$(id -nG "$SERVICE_USER" 2>/dev/null); then
        member_of=
        if ! id "$SERVICE_USER" >/dev/null 2>&1; then
            act useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
                --shell /usr/sbin/nologin "$SERVICE_USER"
            changed "created system user $SERVICE_USER"
            ((DRY_RUN)) || member_of=$(id -nG "$SERVICE_USER" 2>/dev/null) || member_of=
        fi
    fi
    member_of=" $member_of "
    for group in "${GROUPS_NEEDED[@]}"; do
        if [[ $member_of != *" $group "* ]]; then
            act usermod -a -G "$group" "$SERVICE_USER"
            changed "added $SERVICE_USER to group $group"
        fi
    done
}

# ---- the program -------------------------------------------------------------------------

ensure_venv() {
    say "Program in $VENV"
    local wanted=() package lgpio_in_venv=0 version
    installed_packages python3-venv python3-pip python3-lgpio python3-spidev
    for package in python3-venv python3-pip python3-lgpio python3-spidev; do
        # lgpio from PyPI in the venv stands in for python3-lgpio where apt has none
        if [[ $package == python3-lgpio ]] && venv_has lgpio; then
            lgpio_in_venv=1         # and stays: nothing below takes it away
            continue
        fi
        [[ $INSTALLED == *" $package "* ]] || wanted+=("$package")
    done
    if ((${#wanted[@]})); then
        act apt-get update -q
        local available=()
        apt_has "${wanted[@]}"
        for package in "${wanted[@]}"; do
            if [[ $APT_HAS == *" $package "* ]]; then
                available+=("$package")
            else
                say "  apt has no $package: the venv gets it from PyPI instead"
            fi
        done
        if ((${#available[@]})); then
            act env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${available[@]}"
            changed "installed ${available[*]}"
            ((DRY_RUN)) || INSTALLED+="${available[*]} "      # as dpkg would now say
        fi
    fi
    # the version Python prints before it starts up (no site, no import: a few ms, not 20-100)
    version=$(python3 --version 2>&1) || version=
    if ! [[ $version =~ ^Python\ ([0-9]+)\.([0-9]+) ]] ||
        ((10#${BASH_REMATCH[1]} * 1000 + 10#${BASH_REMATCH[2]} < 3011)); then
        die "Python 3.11 or newer is needed (Raspberry Pi OS bookworm or later)"
    fi
    if [[ ! -x $VENV/bin/python ]]; then
        # the system's lgpio and spidev are built for this board: let the venv see them
        act python3 -m venv --system-site-packages "$VENV"
        changed "created the venv $VENV"
    fi
    local stamp
    stamp=$(source_stamp)
    stamp=${stamp%% *}
    if [[ ! -f $VENV/.installed-from ]] || [[ $(<"$VENV/.installed-from") != "$stamp" ]]; then
        act "$VENV/bin/pip" install --quiet --upgrade "${SOURCE}[pi]"
        act "$VENV/bin/python" -m compileall -qq "$VENV/lib" || true
        write_file "$VENV/.installed-from" 0644 "$stamp"
        if ((DRY_RUN)); then
            changed "install tabletop-companion from $SOURCE"
        else
            local line shown=
            while IFS= read -r line; do         # pip show's Version: line, read by the shell
                [[ $line == "Version: "* ]] && shown+="${line#Version: }"$'\n'
            done < <("$VENV/bin/pip" show tabletop-companion)
            changed "installed tabletop-companion ${shown%$'\n'}"
        fi
    fi
    if ! ((lgpio_in_venv)) && [[ $INSTALLED != *" python3-lgpio "* ]] && ! venv_has lgpio; then
        # the pi extra brings lgpio on the Pi's own architectures only: ask for it by name
        act "$VENV/bin/pip" install --quiet lgpio
        changed "installed lgpio from PyPI in the venv"
    fi
}

venv_has() {
    # venv_has MODULE: the venv's Python imports it (from the venv or, as allowed, the system)
    [[ -x $VENV/bin/python ]] && "$VENV/bin/python" -c "import $1" >/dev/null 2>&1
}

source_stamp() {
    # a fingerprint of the source, so an unchanged tree is not reinstalled
    # (not Python's bytecode: a .pyc being written is a temporary file for a moment): the first
    # word of the line printed, before sha256sum's "  -"
    (cd "$SOURCE" && find pyproject.toml engine hardware device seeds -name __pycache__ -prune \
        -o -type f ! -name '*.pyc' -print0 | sort -z | xargs -0 sha256sum | sha256sum)
}

ensure_config() {
    say "Config $CONFIG"
    local current proposed
    if [[ -f $CONFIG ]]; then
        current=$(<"$CONFIG")
    elif [[ -x $VENV/bin/tabletop ]]; then
        current=
        proposed=$("$VENV/bin/tabletop" config --example)
    else
        # --dry-run before the venv exists: the program that writes the defaults is not there yet
        current=
        proposed=
    fi
    [[ -f $CONFIG ]] && proposed=$current
    [[ -n $READER && -n $proposed ]] && proposed=$(printf '%s\n' "$proposed" | set_kind reader "$READER")
    [[ -n $DISPLAY_KIND && -n $proposed ]] && proposed=$(printf '%s\n' "$proposed" | set_kind display "$DISPLAY_KIND")
    if [[ ! -f $CONFIG ]]; then
        act install -d -m 0755 "$CONFIG_DIR"
        if [[ -n $proposed ]]; then
            write_file "$CONFIG" 0640 "$proposed"
        else
            say "  would write: $CONFIG (tabletop config --example)"
        fi
        act chown "root:$SERVICE_USER" "$CONFIG"
        changed "wrote the default config$(kinds_said) (edit it, then: systemctl restart tabletop)"
    elif [[ $proposed != "$current" ]]; then
        write_file "$CONFIG" 0640 "$proposed"
        changed "set$(kinds_said) in $CONFIG"
    fi
    config_access
    CONFIG_READ=$CONFIG
    if ((DRY_RUN)); then
        if [[ ! -x $VENV/bin/tabletop || -z $proposed ]]; then
            CONFIG_READ=
            return
        fi
        if [[ $proposed != "$current" ]]; then
            # the config as it would be, in a file of its own for the checks
            CONFIG_READ=$(mktemp)
            DRAFT=$CONFIG_READ
            printf '%s\n' "$proposed" > "$CONFIG_READ"
        fi
    fi
    read_config || die "fix $CONFIG, then run this again"
}

config_access() {
    # Who may read the config, from one look at its group and mode (a stat started once):
    [[ -f $CONFIG ]] || return 0
    local group mode
    group=$(stat -c '%G %a' "$CONFIG")
    mode=${group##* }
    group=${group% *}
    # The service runs as $SERVICE_USER and reads the config through its group: a config an
    # older install (or an editor) left as root's own is given back, or the table would not start.
    if getent group "$SERVICE_USER" >/dev/null; then
        if [[ $group != "$SERVICE_USER" ]]; then
            act chown "root:$SERVICE_USER" "$CONFIG"
            changed "gave $CONFIG back to the group $SERVICE_USER (it was $group's)"
        fi
        if (( (8#$mode & 8#040) == 0 )); then
            act chmod g+r "$CONFIG"
            changed "let the group $SERVICE_USER read $CONFIG"
            ((DRY_RUN)) || printf -v mode '%o' "$((8#$mode | 8#040))"       # as it is now
        fi
    fi
    # A config holding the fleet's secrets (its key, the broker's password, the dashboard's
    # token) is for root and the service's group only: 0640, whatever an editor left.
    if (( (8#$mode & 8#007) != 0 )) &&
        grep -Eq '^[[:space:]]*(key|password|dashboard_token)[[:space:]]*=' "$CONFIG"; then
        act chmod 0640 "$CONFIG"
        changed "made $CONFIG 0640: it holds the fleet's secrets (it was $mode)"
    fi
}

kinds_said() {
    local said=()
    [[ -n $READER ]] && said+=("reader $READER")
    [[ -n $DISPLAY_KIND ]] && said+=("display $DISPLAY_KIND")
    case ${#said[@]} in
        0) ;;
        1) printf ' (%s)' "${said[0]}" ;;
        *) printf ' (%s, %s)' "${said[0]}" "${said[1]}" ;;
    esac
}

set_kind() {
    # set_kind SECTION KIND: the config on stdin with `kind = "KIND"` in [SECTION] (added if missing)
    awk -v section="$1" -v kind="$2" '
        function add() { print "kind = \"" kind "\""; done = 1 }
        /^[[:space:]]*\[/ {
            if (inside && !done) add()
            inside = ($0 ~ "^[[:space:]]*\\[" section "\\][[:space:]]*$")
            print; next
        }
        inside && !done && /^[[:space:]]*#?[[:space:]]*kind[[:space:]]*=/ { add(); next }
        { print }
        END {
            if (inside && !done) add()
            else if (!done) { print ""; print "[" section "]"; add() }
        }'
}

# ---- the buses ---------------------------------------------------------------------------

read_config() {
    # `tabletop config --check` on the config as it is (or would be), and what the install takes
    # from it, in one Python (each start imports the config's schema): BUSES, the buses the
    # configured parts are wired to (SPI0, I2C1, UART0...), and FLEET_IN_CONFIG, 1 where the
    # config in place (or the defaults) enables the fleet. The check's lines go out as its own
    # would; the two answers come back on file descriptor 3.
    local said
    {
        said=$("$VENV/bin/python" - "$CONFIG_READ" "$([[ -f $CONFIG ]] && printf '%s' "$CONFIG")" \
            3>&1 >&4 <<'PYTHON'
import os
import sys

from device.cli import main

read, in_place = sys.argv[1:]
checked = main(["config", "--check", read])
if checked:
    sys.exit(checked)

from device.config import config_path, load_config
from device.config.pins import buses

config = fleet = load_config(read)
if in_place != read:
    sys.stderr.flush()
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)      # a config that does not load: no fleet
    try:
        fleet = load_config(config_path(in_place or None))
    except Exception:
        fleet = None
with open(3, "w") as found:
    print(" ".join(sorted(buses(config))), file=found)
    print(int(fleet is not None and fleet.fleet.enabled), file=found)
PYTHON
)
    } 4>&1 || return
    BUSES=${said%$'\n'*}
    FLEET_IN_CONFIG=${said##*$'\n'}
}

is_pi5() {
    # A Pi 5 (or 500, or Compute Module 5): its header's UART is the RP1's uart0, not serial0
    local model
    [[ -f $R/proc/device-tree/model ]] || return 1
    IFS= read -r -d '' model < "$R/proc/device-tree/model" || true     # the text before its NUL
    [[ $model =~ ^Raspberry\ Pi\ (5|500|Compute\ Module\ 5)([^0-9]|$) ]]
}

config_param() {
    # Make sure config.txt sets KEY to VALUE (e.g. dtparam=i2c_arm_baudrate 400000), in place of
    # another value it had, printing the change.
    local key=$1 value=$2 file
    file=$(boot_file config.txt)
    [[ -f $file ]] || { say "  no $file: set $key=$value by hand"; return; }
    has_line "$file" "$key=$value" && return
    local line
    while IFS= read -r line || [[ -n $line ]]; do
        [[ $line == "$key="* ]] && break
    done < "$file"
    if [[ $line == "$key="* ]]; then
        ((DRY_RUN)) || sed -i "s/^$key=.*/$key=$value/" "$file"
        changed "set '$key=$value' in $file"
    else
        ((DRY_RUN)) || printf '%s\n' "$key=$value" >> "$file"
        changed "added '$key=$value' to $file"
    fi
    REBOOT_NEEDED=1
}

config_line() {
    # Make sure config.txt has `line` (e.g. dtparam=spi=on), printing the change.
    local line=$1 file
    file=$(boot_file config.txt)
    [[ -f $file ]] || { say "  no $file: set $line by hand"; return; }
    if ! has_line "$file" "$line"; then
        if ! ((DRY_RUN)); then
            printf '%s\n' "$line" >> "$file"
        fi
        changed "added '$line' to $file"
        REBOOT_NEEDED=1
    fi
}

enable_bus() {
    # raspi-config also loads the kernel modules; without it, config.txt is edited.
    local bus=$1 raspi=$2 line=$3
    if command -v raspi-config >/dev/null; then
        if [[ $(raspi-config nonint "get_$raspi") != 0 ]]; then
            act raspi-config nonint "do_$raspi" 0
            changed "enabled $bus (raspi-config nonint do_$raspi 0)"
            REBOOT_NEEDED=1
        fi
    else
        config_line "$line"
    fi
}

free_uart() {
    # The PN532 needs the UART on GPIO 14/15 to itself: no login console on it. On a Pi 5
    # that UART is uart0, off until dtparam=uart0=on (enable_uart=1 is the debug connector's).
    local cmdline
    cmdline=$(boot_file cmdline.txt)
    if is_pi5; then
        config_line dtparam=uart0=on
    fi
    if command -v raspi-config >/dev/null; then
        is_pi5 || enable_bus UART serial_hw enable_uart=1
        if [[ $(raspi-config nonint get_serial_cons) == 0 ]]; then
            act raspi-config nonint do_serial_cons 1
            changed "removed the serial console (raspi-config nonint do_serial_cons 1)"
            REBOOT_NEEDED=1
        fi
    else
        is_pi5 || config_line enable_uart=1
        if [[ -f $cmdline ]] && [[ $(<"$cmdline") =~ console=(serial0|ttyAMA0|ttyS0),[0-9]+ ]]; then
            act sed -E -i 's/console=(serial0|ttyAMA0|ttyS0),[0-9]+ ?//' "$cmdline"
            changed "removed the serial console from $cmdline"
            REBOOT_NEEDED=1
        fi
    fi
}

ensure_buses() {
    local buses=$BUSES
    if [[ -z $CONFIG_READ ]]; then
        # --dry-run with no program yet to read the config: the parts the options name
        case ${READER:-rc522} in rc522) buses="SPI0 I2C1" ;; pn532) buses="UART0 I2C1" ;; esac
    fi
    say "Buses the config uses: ${buses:-none}"
    [[ $buses == *SPI* ]] && enable_bus SPI spi dtparam=spi=on
    if [[ $buses == *I2C* ]]; then
        enable_bus I2C i2c dtparam=i2c_arm=on
        # each screen update is ~1 KB on the bus at most: 4 times faster at 400 kHz than 100
        config_param dtparam=i2c_arm_baudrate "$((I2C_KHZ * 1000))"
    fi
    [[ $buses == *UART* ]] && free_uart
    return 0
}

# ---- the service -------------------------------------------------------------------------

ensure_polkit_rule() {
    say "Polkit rule $POLKIT_RULE"
    local rule
    rule='// The tabletop service may restart itself and power the Pi off (its staff menu), nothing more.
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
});'
    if [[ ! -d ${POLKIT_RULE%/*} ]]; then
        say "  no polkit rules folder: the staff menu cannot restart or power off"
    elif [[ ! -f $POLKIT_RULE ]] || [[ $(<"$POLKIT_RULE") != "$rule" ]]; then
        write_file "$POLKIT_RULE" 0644 "$rule"
        changed "wrote $POLKIT_RULE"
    fi
}

ensure_service() {
    say "Service $UNIT"
    if ! cmp -s "$SOURCE/systemd/tabletop.service" "$UNIT"; then
        write_file "$UNIT" 0644 "$(<"$SOURCE/systemd/tabletop.service")"
        ((SYSTEMD)) && act systemctl daemon-reload
        changed "installed the unit"
    fi
    if ! ((SYSTEMD)); then
        say "  no systemd here: the unit is installed, not enabled or started"
        say "  (where systemd runs: systemctl enable --now tabletop)"
        return
    fi
    if ! systemctl is-enabled --quiet tabletop; then
        act systemctl enable tabletop
        changed "enabled the service"
    fi
    # a restart picks up new code and config; the game in progress resumes
    if ((CHANGES)); then
        act systemctl restart tabletop
        ((DRY_RUN)) || say "  restarted: systemctl status tabletop; journalctl -u tabletop"
    elif ! systemctl is-active --quiet tabletop; then
        act systemctl start tabletop
        changed "started the service"
    else
        say "  running, nothing changed"
    fi
}

ensure_completion() {
    say "Completion $BASH_COMPLETION"
    local shell file script
    for shell in bash zsh; do
        file=$BASH_COMPLETION
        [[ $shell == zsh ]] && file=$ZSH_COMPLETION
        if [[ ! -x $VENV/bin/tabletop ]]; then
            say "  would write: $file (from tabletop completion $shell)"
            continue
        fi
        if ! script=$("$VENV/bin/tabletop" completion "$shell" 2>/dev/null) || [[ -z $script ]]; then
            say "  skipped: this tabletop has no 'tabletop completion $shell' yet"
            continue
        fi
        if [[ ! -f $file ]] || [[ $(<"$file") != "$script" ]]; then
            write_file "$file" 0644 "$script"
            changed "wrote $file"
        fi
    done
}

fleet_wanted() {
    ((FLEET)) && return 0
    [[ -n $FLEET_IN_CONFIG ]] && return "$((!FLEET_IN_CONFIG))"      # as read_config found
    [[ -x $VENV/bin/python ]] || return 1
    "$VENV/bin/python" -c 'import sys; import device.config as c
sys.exit(not c.load_config(c.config_path(sys.argv[1] or None)).fleet.enabled)' \
        "$([[ -f $CONFIG ]] && printf '%s' "$CONFIG")" 2>/dev/null
}

ensure_fleet() {
    # The fleet's package and the unit's network for MQTT, for a table in the café's fleet.
    fleet_wanted || return 0
    say "Fleet: the broker link's package and network"
    if ! venv_has paho.mqtt.client; then
        act "$VENV/bin/pip" install --quiet "${SOURCE}[pi,fleet]"
        changed "installed the fleet extra"
    fi
    if ! cmp -s "$SOURCE/systemd/tabletop-fleet.conf" "$FLEET_DROPIN"; then
        write_file "$FLEET_DROPIN" 0644 "$(<"$SOURCE/systemd/tabletop-fleet.conf")"
        ((SYSTEMD)) && act systemctl daemon-reload
        changed "installed $FLEET_DROPIN"
    fi
}

ensure_command() {
    say "Command $COMMAND"
    local wrapper="#!/bin/sh
# tabletop as the service's user, on its state dir (/etc/tabletop/config.toml is found by default)
exec sudo -u $SERVICE_USER env STATE_DIRECTORY=$STATE_DIR $VENV_PATH/bin/tabletop \"\$@\""
    if [[ ! -f $COMMAND ]] || [[ $(<"$COMMAND") != "$wrapper" ]]; then
        write_file "$COMMAND" 0755 "$wrapper"
        changed "wrote $COMMAND"
    fi
}

# ---- uninstall ---------------------------------------------------------------------------

uninstall() {
    say "Removing the tabletop service"
    if [[ -f $UNIT ]]; then
        ((SYSTEMD)) && { act systemctl disable --now tabletop || true; }
        if [[ -L $UNIT_LINK ]]; then
            act rm -f "$UNIT_LINK"
        fi
        act rm -f "$UNIT"
        ((SYSTEMD)) && act systemctl daemon-reload
        changed "removed $UNIT"
    fi
    local file
    for file in "$POLKIT_RULE" "$COMMAND" "$BASH_COMPLETION" "$ZSH_COMPLETION" "$FLEET_DROPIN"; do
        if [[ -f $file ]]; then
            act rm -f "$file"
            changed "removed $file"
        fi
    done
    if [[ -d $VENV ]]; then
        act rm -rf "$VENV"
        changed "removed $VENV"
    fi
    say "Kept: $CONFIG_DIR (config), $R$STATE_DIR (games and decks), the user $SERVICE_USER"
    say "and the bus settings; remove them by hand if they are no longer wanted."
}

parse_options() {
    ACTION=install
    while (($#)); do
        case $1 in
            -h|--help) usage; exit 0 ;;
            --uninstall) ACTION=uninstall ;;
            --dry-run) DRY_RUN=1 ;;
            --no-systemd) SYSTEMD=0 ;;
            --fleet) FLEET=1 ;;
            --reader|--display)
                (($# >= 2)) || { usage >&2; exit 2; }
                case $1:$2 in
                    --reader:rc522|--reader:pn532) READER=$2 ;;
                    --display:ssd1306|--display:sh1106) DISPLAY_KIND=$2 ;;
                    *) printf 'install.sh: %s %s: not one of its choices\n' "$1" "$2" >&2
                       usage >&2; exit 2 ;;
                esac
                shift ;;
            --i2c-khz)
                (($# >= 2)) || { usage >&2; exit 2; }
                if [[ ! $2 =~ ^[0-9]+$ ]] || ((10#$2 < 10)); then
                    printf 'install.sh: --i2c-khz %s: a whole number of kHz, 10 to 400\n' "$2" >&2
                    exit 2
                fi
                if ((10#$2 > 400)); then       # the OLEDs' datasheets: I2C fast mode at most
                    printf 'install.sh: --i2c-khz %s: the SSD1306 and SH1106 are specified to 400 kHz on I2C (fast mode); 10 to 400\n' "$2" >&2
                    exit 2
                fi
                I2C_KHZ=$((10#$2))
                I2C_KHZ_SET=1
                shift ;;
            --reader=*|--display=*|--i2c-khz=*) set -- "${1%%=*}" "${1#*=}" "${@:2}"; continue ;;
            *) usage >&2; exit 2 ;;
        esac
        shift
    done
    if [[ $ACTION == uninstall && -n $READER$DISPLAY_KIND$I2C_KHZ_SET ]]; then
        die "--reader, --display and --i2c-khz are for installing"
    fi
    # systemd runs the machine when /run/systemd/system exists (sd_booted)
    if ((SYSTEMD)) && [[ ! -d $R/run/systemd/system ]]; then
        SYSTEMD=0
        say "systemd is not running here: installing without starting the service (--no-systemd)"
    fi
}

main() {
    parse_options "$@"
    if ((DRY_RUN)); then
        say "Dry run: nothing is changed, each change is printed as it would be made"
        trap '[[ -z $DRAFT ]] || rm -f "$DRAFT"' EXIT
    elif [[ -z $R ]]; then
        [[ $EUID -eq 0 ]] || die "run it as root: sudo $0 $*"
    fi
    if [[ $ACTION == uninstall ]]; then
        uninstall
        return
    fi
    ensure_user
    ensure_venv
    ensure_config
    ensure_buses
    ensure_polkit_rule
    ensure_command
    ensure_completion
    ensure_fleet
    ensure_service
    if ((DRY_RUN)); then
        say "Dry run: $CHANGES changes to make"
        return
    fi
    if ((REBOOT_NEEDED)); then
        say "Reboot for the bus changes to take effect: sudo reboot"
    fi
    if ((SYSTEMD)); then
        say "Check the table: sudo systemctl stop tabletop; tabletop doctor; sudo systemctl start tabletop"
    else
        say "Check the table: $VENV_PATH/bin/tabletop doctor (--sim without the parts)"
    fi
}

main "$@"
