"""A config holding the fleet's secrets: a tag key too short to resist a guess and a file that
others read are warned of by `config --check` and `doctor`; install.sh makes the file 0640."""
from __future__ import annotations

import json

from device.cli import main
from device.config import parse_config
from device.config.secrets import KEY_BYTES, secret_warnings
from tests.test_systemd import Machine

LONG = "k" * KEY_BYTES
SECRETS = f'[fleet]\nkey = "{LONG}"\npassword = "broker-pass"\n'


def test_a_short_key_is_warned_of_and_a_long_one_is_not(tmp_path, capsys):
    config = tmp_path / "table.toml"
    config.write_text('[fleet]\nkey = "x"\n')
    config.chmod(0o600)
    assert main(["config", "--check", str(config)]) == 0         # a warning: the table starts
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "fleet.key: only 1 byte:" in err and "32" in err
    assert main(["config", "--check", str(config), "--json"]) == 0
    notes = json.loads(capsys.readouterr().out)["notes"]
    assert [n["key"] for n in notes] == ["fleet.key"]
    config.write_text(f'[fleet]\nkey = "{LONG}"\n')
    assert main(["config", "--check", str(config)]) == 0
    assert capsys.readouterr().err == ""


def test_a_config_others_can_read_holding_secrets_is_warned_of(tmp_path, capsys):
    config = tmp_path / "table.toml"
    config.write_text(SECRETS)
    config.chmod(0o666)
    assert main(["config", "--check", str(config)]) == 0
    err = capsys.readouterr().err
    assert "others can read it (mode 666)" in err and "fleet.key, fleet.password" in err
    config.chmod(0o640)
    assert secret_warnings(parse_config(SECRETS), config) == []
    (tmp_path / "plain.toml").write_text("[kiosk]\nenabled = true\n")
    (tmp_path / "plain.toml").chmod(0o644)                        # no secret: readable is fine
    assert secret_warnings(parse_config("[kiosk]\nenabled = true\n"), tmp_path / "plain.toml") == []


def test_doctor_warns_of_the_same(tmp_path, capsys):
    config = tmp_path / "table.toml"
    config.write_text('[fleet]\nkey = "x"\npassword = "p"\n')
    config.chmod(0o666)
    main(["doctor", "--sim", "--config", str(config), "--json"])
    checks = {c["name"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert checks["config"]["status"] == "WARN"
    assert "fleet.key: only 1 byte:" in checks["config"]["detail"]
    assert "others can read it" in checks["config"]["detail"]


def test_install_makes_a_config_holding_secrets_0640(tmp_path):
    """A config an editor left 0644 with the broker's password in it: made 0640 at once."""
    machine = Machine(tmp_path, systemd=True)
    config = machine.file("/etc/tabletop/config.toml")
    config.parent.mkdir(parents=True)
    config.write_text(SECRETS)
    config.chmod(0o644)
    done = machine.install()
    assert "it holds the fleet's secrets (it was 644)" in done.stdout
    assert config.stat().st_mode & 0o777 == 0o640 and config.read_text() == SECRETS
