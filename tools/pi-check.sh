#!/usr/bin/env bash
# Check the install on Raspberry Pi OS without a Pi: an arm64 Debian bookworm root,
# run through qemu-user, gets this tree installed by systemd/install.sh (no systemd
# there), then runs `tabletop doctor --sim`, the README's pairs replay and
# `tabletop bench --quick`, and prints what they report and how long each step took.
#
#   sudo make pi-check                     (or: sudo tools/pi-check.sh)
#   sudo tools/pi-check.sh --rebuild       start again from a fresh root
#   sudo tools/pi-check.sh --clean         remove the cached root
#
# The root is built once and kept in .cache/pi-root (not tracked); later runs reuse it,
# so they only copy the tree in and run install.sh again (which then installs only
# what changed). Environment: PI_ROOT (where the root lives), PI_MIRROR (a Debian
# mirror for debootstrap, else its default), PI_READER / PI_DISPLAY (passed to
# install.sh as --reader / --display; rc522 and ssd1306 by default).
set -euo pipefail

SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=${PI_ROOT:-$SOURCE/.cache/pi-root}
SUITE=bookworm
ARCH=arm64
READER=${PI_READER:-rc522}
DISPLAY_KIND=${PI_DISPLAY:-ssd1306}
HOST_PACKAGES=(debootstrap qemu-user-static binfmt-support)
# what the root needs before install.sh runs (Raspberry Pi OS has these already)
ROOT_PACKAGES=python3,python3-venv,ca-certificates
INSIDE_SOURCE=/usr/src/tabletop-companion
MOUNTED=()
STARTED=$SECONDS

say() { printf 'pi-check: %s\n' "$*"; }
die() { printf 'pi-check: %s\n' "$*" >&2; exit 1; }

usage() {
    sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

step() {
    # step NAME COMMAND...: run it, then print how long it took
    local name=$1 began=$SECONDS
    shift
    say "== $name"
    "$@"
    say "   $name: $((SECONDS - began)) s"
}

# ---- the host ----------------------------------------------------------------------------

host_packages() {
    local missing=() package
    for package in "${HOST_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$package")
        fi
    done
    if ((${#missing[@]})); then
        command -v apt-get >/dev/null ||
            die "needs ${missing[*]} (Debian packages), and there is no apt-get to install them"
        say "installing ${missing[*]}"
        apt-get update -q
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    fi
    command -v debootstrap >/dev/null || die "debootstrap is missing: apt-get install debootstrap"
}

binfmt_ready() {
    [[ $(uname -m) == aarch64 ]] && return 0
    local entry=/proc/sys/fs/binfmt_misc/qemu-aarch64
    [[ -f $entry ]] && head -n1 "$entry" | grep -qx enabled
}

ensure_binfmt() {
    # arm64 programs in the root run through qemu-aarch64-static, which the kernel picks
    # by the binary's header (binfmt_misc); the entry's F flag keeps it usable in a chroot.
    binfmt_ready && return 0
    if [[ ! -f /proc/sys/fs/binfmt_misc/register ]]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
    fi
    update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
    binfmt_ready && return 0
    die "cannot run arm64 programs here: binfmt_misc is not available (a container needs
  it from its host: mount binfmt_misc and register qemu-aarch64 there, e.g.
  update-binfmts --enable qemu-aarch64), or run this on an arm64 machine"
}

# ---- the root ----------------------------------------------------------------------------

remove_root() {
    # A run that was killed may have left /dev or /proc mounted in the root: unmount
    # whatever is under it first, and never let rm cross into another file system.
    local dir=$1 target
    [[ -e $dir ]] || return 0
    while read -r target; do
        umount -l "$target" 2>/dev/null || true
    done < <(awk -v dir="$(realpath "$dir")" '$2 == dir || index($2, dir "/") == 1 { print $2 }' \
        /proc/mounts | sort -r)
    rm -rf --one-file-system "$dir"
}

build_root() {
    local building=$ROOT.building
    remove_root "$building"
    mkdir -p "$(dirname "$ROOT")"
    local mirror=()
    [[ -n ${PI_MIRROR:-} ]] && mirror=("$PI_MIRROR")
    debootstrap --arch="$ARCH" --variant=minbase --include="$ROOT_PACKAGES" \
        "$SUITE" "$building" "${mirror[@]}"
    # the sources install.sh's apt-get update reads, as on the Pi: bookworm and its updates
    local sources
    sources=$(grep -E '^deb ' "$building/etc/apt/sources.list" | head -n1)
    printf '%s\n%s\n' "$sources" "${sources/ $SUITE / $SUITE-updates }" \
        > "$building/etc/apt/sources.list"
    mv "$building" "$ROOT"
}

ensure_root() {
    if [[ -x $ROOT/usr/bin/python3 ]]; then
        say "reusing the arm64 $SUITE root in $ROOT (--rebuild for a fresh one)"
    else
        step "debootstrap an arm64 $SUITE root" build_root
    fi
}

mount_root() {
    local target
    for target in proc sys dev dev/pts; do
        mkdir -p "$ROOT/$target"
        mountpoint -q "$ROOT/$target" && continue
        case $target in
            proc) mount -t proc proc "$ROOT/proc" ;;
            sys) mount -t sysfs sysfs "$ROOT/sys" ;;
            *) mount --bind "/$target" "$ROOT/$target" ;;
        esac
        MOUNTED=("$ROOT/$target" "${MOUNTED[@]}")
    done
    cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf"
}

unmount_root() {
    local target
    for target in "${MOUNTED[@]}"; do
        umount -l "$target" 2>/dev/null || true
    done
    MOUNTED=()
}

trust_host_certificates() {
    # A host behind a TLS-inspecting proxy trusts its CA through the local certificates
    # folder: the root trusts the same ones, so its apt-get and pip reach what the host does.
    local dir=/usr/local/share/ca-certificates cert fresh=0
    compgen -G "$dir/*.crt" >/dev/null || return 0
    mkdir -p "$ROOT$dir"
    for cert in "$dir"/*.crt; do
        if ! cmp -s "$cert" "$ROOT$cert"; then
            cp "$cert" "$ROOT$cert"
            fresh=1
        fi
    done
    if ((fresh)); then
        say "trusting the host's local CA certificates in the root too"
        inside update-ca-certificates >/dev/null
    fi
}

copy_tree() {
    # the tracked files as they are in the working tree (committed or not)
    rm -rf "$ROOT$INSIDE_SOURCE"
    mkdir -p "$ROOT$INSIDE_SOURCE"
    (cd "$SOURCE" && git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' file; do [[ -e $file ]] && printf '%s\0' "$file"; done |
        tar --null -T - -cf -) | tar -xf - -C "$ROOT$INSIDE_SOURCE"
}

inside() {
    chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 STATE_DIRECTORY=/var/lib/tabletop "$@"
}

# ---- the checks --------------------------------------------------------------------------

install_it() {
    inside "$INSIDE_SOURCE/systemd/install.sh" --no-systemd --reader "$READER" --display "$DISPLAY_KIND"
}

doctor() {
    local status=0
    inside /opt/tabletop/bin/tabletop doctor --sim || status=$?
    DOCTOR_STATUS=$status
}

replay() {
    # the pairs game from the README, with the scores it prints there
    cat > "$ROOT/tmp/pairs.txt" <<'SCRIPT'
game palourde
players Ann Bob Cy
tap clam#1
tap clam#2
tap rake#1
tap clam#3
tap clam#3
SCRIPT
    local status=0
    inside /opt/tabletop/bin/tabletop replay /tmp/pairs.txt | tee "$ROOT/tmp/pairs.out" || status=$?
    REPLAY_STATUS=$status
}

bench() {
    inside /opt/tabletop/bin/tabletop bench --quick
}

main() {
    local rebuild=0
    case ${1:-} in
        -h|--help) usage; exit 0 ;;
        --rebuild) rebuild=1 ;;
        --clean) ;;
        "") ;;
        *) usage >&2; exit 2 ;;
    esac
    [[ $EUID -eq 0 ]] || die "run it as root (sudo make pi-check): it builds a root with debootstrap and chroots into it"
    trap unmount_root EXIT
    if [[ ${1:-} == --clean ]] || ((rebuild)); then
        say "removing $ROOT"
        remove_root "$ROOT"
        remove_root "$ROOT.building"
        [[ ${1:-} == --clean ]] && return
    fi
    host_packages
    ensure_binfmt
    ensure_root
    mount_root
    say "$(inside uname -m) root: $(sed -n 's/^PRETTY_NAME="\(.*\)"$/\1/p' "$ROOT/etc/os-release"), $(inside python3 --version)"
    trust_host_certificates
    step "copy the tree in" copy_tree
    step "install.sh --no-systemd --reader $READER --display $DISPLAY_KIND" install_it
    DOCTOR_STATUS=0 REPLAY_STATUS=0
    step "tabletop doctor --sim" doctor
    step "tabletop replay (pairs)" replay
    step "tabletop bench --quick" bench
    say "doctor --sim: exit $DOCTOR_STATUS; replay: exit $REPLAY_STATUS"
    say "took $((SECONDS - STARTED)) s in all"
    ((DOCTOR_STATUS == 0 && REPLAY_STATUS == 0)) || exit 1
}

main "$@"
