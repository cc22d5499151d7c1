"""The emails' words in every language (the account's language chooses), from the
catalogues (:mod:`cardtable.catalogue`, their ``mail:`` ids).

Each email is a subject and a plain-text body, :meth:`str.format` templates whose
fields the caller gives: ``name`` (the account's name), ``link``, ``hours`` and
``minutes`` (how long a link works), ``reason`` (a moderator's words), ``until`` (a
mute's end, UTC) and ``new_name``. No text guesses the reader's gender.

>>> subject, body = mail_text("reset", "uk", name="Оля", link="https://x/reset#t", minutes=30)
>>> subject
'Скидання пароля cardtable'
>>> "https://x/reset#t" in body and "30 хв" in body
True
"""

from __future__ import annotations

from typing import Any, Final

from cardtable.catalogue import languages, words

__all__ = ["KINDS", "mail_text"]

#: The kinds of email there are: those the catalogues write (``mail:KIND.subject``).
KINDS: Final = tuple(
    key.removesuffix(".subject") for key in words("mail", "en") if key.endswith(".subject")
)


def mail_text(kind: str, lang: str, **fields: Any) -> tuple[str, str]:
    """The subject and body of email ``kind`` in ``lang`` (English for a language
    without the texts), its fields filled in: the catalogues' ``mail:`` ids."""
    if kind not in KINDS:
        raise KeyError(kind)
    texts = {key: str(text) for key, text in words("mail", "en").items()}
    if lang in languages():
        texts.update((key, str(text)) for key, text in words("mail", lang).items())
    subject, body = texts[f"{kind}.subject"], texts[f"{kind}.body"]
    return subject.format(**fields), body.format(**fields) + texts["signature"]
