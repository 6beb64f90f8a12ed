"""Usernames and passwords: allowed forms, one identity per name, no look-alikes, reserved."""

from __future__ import annotations

import pytest

from coffeetable.server.players import passwords, usernames
from coffeetable.server.players.passwords import PasswordError
from coffeetable.server.players.usernames import UsernameError


@pytest.mark.parametrize(
    "name", ["Bea", "ada_lovelace", "x.y-z", "R2d2", "a" * 20, "Zoë"[:2] + "e"]
)
def test_allowed_names_are_kept_as_typed(name: str) -> None:
    assert usernames.check(name) == name


def test_nfkc_turns_full_width_letters_into_ascii() -> None:
    assert usernames.check("Ｂｅａ") == "Bea"
    assert usernames.name_key("Ｂｅａ") == usernames.name_key("BEA") == "bea"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("ab", "3 to 20"),
        ("a" * 21, "3 to 20"),
        ("Zoë", "only letters a-z"),
        ("bеa", "only letters a-z"),  # Cyrillic е: mixed scripts
        ("Ада", "only letters a-z"),
        ("bea bea", "only letters a-z"),
        ("_bea", "starts with a letter"),
        ("1bea", "starts with a letter"),
        ("bea_", "ends with a letter or digit"),
        ("be__a", "no two of"),
        ("be.-a", "no two of"),
    ],
)
def test_refused_names_say_why(name: str, why: str) -> None:
    with pytest.raises(UsernameError, match=why):
        usernames.check(name)


@pytest.mark.parametrize(
    "name",
    [
        "random",
        "Greedy",
        "ISMCTS",
        "easy",
        "medium",
        "hard",
        "admin",
        "Adm1n",
        "system",
        "guest",
        "robot",
        "ada-bot",
        "AdaBot",
        "hard_b0t",
        "coffee.table",
    ],
)
def test_bot_and_site_names_are_reserved(name: str) -> None:
    with pytest.raises(UsernameError, match="reserved"):
        usernames.check(name)


def test_case_and_look_alikes_share_a_key_or_a_skeleton() -> None:
    assert usernames.name_key("Bea") == usernames.name_key("bEA")
    same_shape = ["bea_b", "Bea.b", "beab", "bea-b", "BEAB"]
    assert len({usernames.skeleton(name) for name in same_shape}) == 1
    assert usernames.skeleton("Iris") == usernames.skeleton("lris") == usernames.skeleton("1ris")
    assert usernames.skeleton("b0b") == usernames.skeleton("bob") == usernames.skeleton("BOB")
    assert usernames.skeleton("modern") == usernames.skeleton("modem")
    assert usernames.skeleton("vvill") == usernames.skeleton("will")
    assert usernames.skeleton("bea") != usernames.skeleton("ben")


def test_password_bounds() -> None:
    good = "correct horse battery staple "
    assert passwords.check(good[:8]) == good[:8]
    assert passwords.check((good * 5)[:128]) == (good * 5)[:128]
    for bad in ("x" * 7, (good * 5)[:129], ""):
        with pytest.raises(PasswordError, match="8 to 128"):
            passwords.check(bad)
    with pytest.raises(PasswordError, match="not contain the username"):
        passwords.check("Beatrice1", "beatrice1")


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("password", "most common"),
        ("PassWord1", "most common"),  # compared in lower case
        ("iloveyou", "most common"),
        ("qwertyuiop", "most common"),
        ("12345678", "a run"),
        ("abcdefgh", "a run"),
        ("87654321", "a run"),
        ("aaaaaaaa", "repeats"),
        ("abababab", "repeats"),
        ("        ", "only spaces"),
        ("\t \t \t \t ", "only spaces"),
        ("my name is beatrice!", "not contain the username"),
    ],
)
def test_common_and_trivial_passwords_are_refused_saying_why(password: str, why: str) -> None:
    with pytest.raises(PasswordError, match=why):
        passwords.check(password, "Beatrice")


def test_the_list_of_common_passwords_is_shipped_and_large() -> None:
    common = passwords.common_passwords()
    assert len(common) >= 10_000
    assert {"password", "12345678", "sunshine", "football"} <= common
    assert passwords.check("correct horse battery", "Beatrice") == "correct horse battery"
