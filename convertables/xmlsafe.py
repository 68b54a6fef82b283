"""The one way convertables parses XML: safely.

Every XML reader calls :func:`parse_xml`. The parser never expands entities,
never loads a DTD, never touches the network, and keeps libxml2's limits on
tree depth and text size (no ``huge_tree``). A document that declares entities
is refused outright (like defusedxml's default), so an entity-expansion bomb or
an external entity pointing at a local file can never reach any output.
"""

from __future__ import annotations

import re

from lxml import etree

from .diagnostics import Diagnostics, InputError


def _parser() -> etree.XMLParser:
    # A new parser each call: lxml parsers are not thread-safe to share.
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )


ENTITY_MARKS = tuple(text.encode(encoding) for text in ("<!ENTITY", "<!entity")
                     for encoding in ("utf-8", "utf-16-le", "utf-16-be"))
"""An entity declaration's start as UTF-8 (and ASCII's other supersets) and
UTF-16 write it; libxml2 may refuse a document before it tells of one (an
amplification in an attribute reads as a syntax error)."""


def parse_xml(data: bytes, diagnostics: Diagnostics) -> etree._Element:
    """Parse ``data`` and return the root element, or raise :class:`InputError`.

    Errors carry codes ``xml-empty``, ``xml-syntax`` (with line and column) and
    ``xml-entity``.
    """
    if not data or data.isspace():  # (isspace stops at the first other byte; strip would copy)
        raise diagnostics.fail("xml-empty", "the file is empty")
    if any(mark in data for mark in ENTITY_MARKS):  # refused before libxml2 sees it (and checked after parsing)
        raise _entities_refused(diagnostics)
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as exc:
        line, column = (exc.position if exc.position else (None, None))
        message = (exc.msg or str(exc)).split(", line ")[0]
        if not message.strip() or "memory" in message.lower():  # (libxml2 out of memory: no syntax at fault)
            raise diagnostics.fail("too-large", "out of memory: the XML needs more memory than is available"
                                   ) from None
        raise diagnostics.fail(
            "xml-syntax", f"not well-formed XML: {message}", line=line or None, column=column or None
        ) from None
    except ValueError as exc:  # e.g. a str with an encoding declaration
        raise diagnostics.fail("xml-syntax", f"not well-formed XML: {exc}") from None
    if root is None:
        raise diagnostics.fail("xml-empty", "the file holds no XML element")
    docinfo = root.getroottree().docinfo
    dtd = docinfo.internalDTD
    if dtd is not None and any(True for _ in dtd.iterentities()):
        raise _entities_refused(diagnostics)
    return root


def _entities_refused(diagnostics: Diagnostics) -> InputError:
    return diagnostics.fail(
        "xml-entity",
        "the document declares XML entities; they are refused for safety",
        line=1,
        hint="remove the <!DOCTYPE ...> block",
    )


# Characters XML 1.0 cannot carry (surrogates are not characters at all)
XML_INVALID_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(value: str, diagnostics: Diagnostics) -> str:
    """``value`` as an XML writer may write it: the characters XML cannot carry
    are dropped, and a warning (``xml-invalid-char``) says so."""
    if XML_INVALID_CHARS.search(value):
        diagnostics.warning("xml-invalid-char", "a text holds characters XML cannot carry; they are dropped")
        return XML_INVALID_CHARS.sub("", value)
    return value


def local_name(tag: object) -> str:
    """The element name without a namespace (comments and the like give '')."""
    if not isinstance(tag, str):
        return ""
    return tag.rpartition("}")[2]


__all__ = ["parse_xml", "local_name", "xml_text", "XML_INVALID_CHARS", "InputError"]
