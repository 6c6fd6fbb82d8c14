"""The run command's parts: LAN addresses, start URLs, the terminal QR code,
and ``python -m webapp`` handing over to gunicorn."""
from __future__ import annotations

import ipaddress
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import qrcode

from webapp import __main__ as run_command
from webapp import hosting

ROOT = Path(__file__).resolve().parents[2]

# What print_ascii(invert=True) draws for (upper module, lower module) being dark.
BLOCKS = {"█": (False, False), "▄": (True, False), "▀": (False, True), "\xa0": (True, True)}


def test_lan_addresses_are_reachable_ipv4_without_duplicates():
    addresses = hosting.lan_addresses()
    assert len(addresses) == len(set(addresses))
    for address in addresses:
        ip = ipaddress.IPv4Address(address)
        assert not (ip.is_loopback or ip.is_link_local or ip.is_unspecified), address


def test_a_bound_host_gives_its_own_url():
    assert hosting.start_urls("127.0.0.1", 8000) == ["http://127.0.0.1:8000/"]
    assert hosting.start_urls("192.168.1.7", 8443, "https") == ["https://192.168.1.7:8443/"]


def test_all_interfaces_give_one_url_per_lan_address(monkeypatch):
    monkeypatch.setattr(hosting, "lan_addresses", lambda: ["192.168.1.5", "10.0.0.2"])
    assert hosting.start_urls("0.0.0.0", 9000) == ["http://192.168.1.5:9000/", "http://10.0.0.2:9000/"]


def test_without_a_network_the_local_url_and_a_warning(monkeypatch):
    monkeypatch.setattr(hosting, "lan_addresses", lambda: [])
    urls = hosting.start_urls("0.0.0.0", 8000)
    assert urls == ["http://127.0.0.1:8000/"]
    assert "Kein Netzwerk gefunden" in hosting.banner(urls)


def _decode(drawing: str) -> list[list[bool]]:
    """The module matrix (True = dark) drawn by terminal_qr, two rows a line."""
    rows: list[list[bool]] = []
    for line in drawing.splitlines():
        pairs = [BLOCKS[char] for char in line]
        rows.append([upper for upper, _lower in pairs])
        rows.append([lower for _upper, lower in pairs])
    return rows


def test_terminal_qr_draws_the_code_of_the_url_dark_modules_blank():
    url = "http://192.168.1.23:8000/"
    reference = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    reference.add_data(url)
    expected = reference.get_matrix()
    drawn = _decode(hosting.terminal_qr(url))
    # The last line's lower half is the inverted border's padding row.
    assert drawn[: len(expected)] == [list(row) for row in expected]


def test_banner_lists_every_url_and_draws_the_first():
    urls = ["http://192.168.1.5:8000/", "http://10.0.0.2:8000/"]
    text = hosting.banner(urls)
    assert all(f"    {url}" in text for url in urls)
    assert hosting.terminal_qr(urls[0]) in text


def test_main_migrates_prints_the_banner_and_execs_gunicorn(monkeypatch, capsys):
    started, migrated = {}, []
    monkeypatch.setattr(run_command, "upgrade_database", lambda: migrated.append(True))
    monkeypatch.setattr(hosting, "lan_addresses", lambda: ["192.168.1.5"])
    monkeypatch.setattr(run_command.os, "execv", lambda path, argv: started.update(path=path, argv=argv))
    monkeypatch.setattr(run_command.os, "environ", {})
    run_command.main(["--port", "9001", "--workers", "3"])
    assert migrated == [True]
    assert "http://192.168.1.5:9001/" in capsys.readouterr().out
    argv = started["argv"]
    assert argv[1:3] == ["-m", "gunicorn"] and argv[-1] == "wsgi:app"
    assert argv[argv.index("--bind") + 1] == "0.0.0.0:9001"
    assert argv[argv.index("--workers") + 1] == "3"
    assert "--certfile" not in argv
    assert run_command.os.environ["KT_LAN_URL"] == "http://192.168.1.5:9001"  # C9: the workers' LAN address


def test_without_a_lan_address_no_lan_url_is_exported(monkeypatch, capsys):
    monkeypatch.setattr(run_command, "upgrade_database", lambda: None)
    monkeypatch.setattr(hosting, "lan_addresses", lambda: [])
    monkeypatch.setattr(run_command.os, "execv", lambda path, argv: None)
    monkeypatch.setattr(run_command.os, "environ", {"KT_LAN_URL": "http://stale"})
    run_command.main(["--port", "9002"])
    assert "KT_LAN_URL" not in run_command.os.environ


def test_flask_db_upgrade_makes_the_schema(tmp_path, monkeypatch):
    """The run command's migration step, for real, on a fresh SQLite file."""
    import sqlalchemy as sa

    url = f"sqlite:///{tmp_path / 'run.sqlite3'}"
    monkeypatch.setenv("DATABASE_URL", url)
    run_command.upgrade_database()
    assert {"tables", "seats", "events"} <= set(sa.inspect(sa.create_engine(url)).get_table_names())


def test_kt_run_names_no_port_of_its_own():
    """./kt run --port 8765 must not say "port 8000": the banner says where it listens."""
    kt = (ROOT / "kt").read_text()
    run = kt[kt.index("cmd_run()"):kt.index("cmd_test()")]
    assert "8000" not in run and "PORT" not in run


def test_a_worker_tunes_its_garbage_collection(tmp_path):
    """What gunicorn's worker loads (``wsgi:app``) leaves the app out of collections and
    collects young objects after YOUNG_COLLECTION_AFTER allocations, not CPython's 700."""
    probe = "import gc, json, wsgi; print(json.dumps([gc.get_threshold(), gc.get_freeze_count()]))"
    env = os.environ | {"DATABASE_URL": f"sqlite:///{tmp_path / 'gc.sqlite3'}"}
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True).stdout
    threshold, frozen = json.loads(out.splitlines()[-1])
    assert threshold == [hosting.YOUNG_COLLECTION_AFTER, hosting.OLDER_COLLECTION_AFTER,
                         hosting.OLDER_COLLECTION_AFTER]
    assert frozen > 10_000  # the modules and the app, at least
