"""E-mail and IP addresses masked, counted; nothing else touched."""

from __future__ import annotations

import pytest

from corpusbot.filters.pii import Pii, PiiOptions
from tests.filters.support import state


def masked(text: str, **options: str) -> tuple[str, dict[str, int]]:
    page = state(text)
    assert Pii(PiiOptions(**options)).apply(page) is None
    return page.text, dict(page.edits)


def test_email_and_ip_addresses_are_replaced_and_counted():
    text, edits = masked("Write to jane.doe+news@mail.example.org or call 203.0.113.7 now.")
    assert text == "Write to email@example.com or call 192.0.2.1 now."
    assert edits == {"edit/pii/email/addresses": 1, "edit/pii/email/chars": 30,
                     "edit/pii/ip/addresses": 1, "edit/pii/ip/chars": 11}


@pytest.mark.parametrize("text", [
    "Version 1.2.3.4.5 of the tool", "Score 300.1.1.1 is no address", "Meet at 10:30:00 today",
    "An @ sign alone, or user@localhost", "The ratio 3.14 and 2001:db8 alone",
])
def test_things_that_only_look_like_addresses_are_left(text):
    assert masked(text) == (text, {})


def test_an_ipv6_address_is_replaced():
    assert masked("Host 2001:db8::8a2e:370:7334 answered.")[0] == "Host 192.0.2.1 answered."


def test_off_keeps_the_text():
    assert masked("mail me: a@b.example", mode="off") == ("mail me: a@b.example", {})


def test_a_bad_mode_is_refused_in_one_line():
    with pytest.raises(ValueError, match=r"^pii\.mode must be one of mask, off, got 'hide'$"):
        PiiOptions(mode="hide")
