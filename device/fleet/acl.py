"""The broker's access list for the café: each table writes only its own topics.

`tabletop fleet acl table-1 table-2 ...` prints a Mosquitto `acl_file`: every table has a broker
account named like it that may write under tabletop/<table>/ and its Home Assistant device only,
and read what the café shares and asks of it (claim.py); the owner's account shares decks and
staff cards and may retire a table; the dashboard's and Home Assistant's accounts only read.
Without it any client of the broker can write on any table's topics (the dashboard then
believes only what is signed).
"""
from __future__ import annotations

import re

from .claim import REQUEST, claim_topic
from .home_assistant import PREFIX
from .schema import Refused, table_name
from .topics import ROOT, SHARED, defaults_topic

ACCOUNT = re.compile(r"[A-Za-z0-9_.@-]{1,64}", re.ASCII)   # one word: an ACL file has no quoting


def account(name: str) -> str:
    """A broker user name the file can hold (a space or a line break would end the rule)."""
    if not ACCOUNT.fullmatch(name):
        raise Refused(f"not a broker account name: {name!r}")
    return name


def acl(tables: list[str], admin: str, readers: list[str]) -> str:
    """The file's text; Refused for a name a table or an account cannot have."""
    for name in tables:
        try:
            table_name(name)
        except Refused:
            raise Refused(f"not a table name: {name!r}") from None
    accounts = [*tables, account(admin), *(account(r) for r in readers)]
    if len(set(accounts)) != len(accounts):
        raise Refused("each table and account needs its own broker account")
    lines = ["# Written by `tabletop fleet acl`: each table writes only its own topics.", ""]
    for name in tables:
        lines += [f"user {name}",
                  f"topic write {ROOT}/{name}/#",
                  f"topic write {PREFIX}/+/tabletop_{name}/#",     # its sensors and problem sensors
                  f"topic read {ROOT}/{SHARED}/#",
                  f"topic read {claim_topic(name, REQUEST)}",     # the café's card requests
                  f"topic read {defaults_topic(name)}",           # the café's house rules for it
                  f"topic readwrite {ROOT}/sync/#",          # the command-line tools' markers
                  ""]
    lines += [f"user {admin}", f"topic readwrite {ROOT}/#", f"topic readwrite {PREFIX}/+/#", ""]
    for name in readers:
        lines += [f"user {name}", f"topic read {ROOT}/#", f"topic read {PREFIX}/#", ""]
    return "\n".join(lines)
