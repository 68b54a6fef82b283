"""HTML parsed as BeautifulSoup's ``html.parser`` builder builds it: the tree
that the evaluations of Unstructured, olmOCR-bench and OmniDocBench walk (each
parses a table's HTML with ``BeautifulSoup(html, "html.parser")``), built here
without BeautifulSoup so that their figures come out exactly.

Python's ``html.parser`` reads the markup; its events become a tree as that
builder makes it:

* tags nest as written: nothing closes implicitly; an end tag closes the last
  open element of its name and every element opened after it, one with no open
  element of its name is passed over; what is open at the end stays in the
  tree as it is;
* void elements (``<br>``, ``<img>``...) close as they open, and an end tag of
  theirs that follows is passed over; ``<td/>`` is an element opened and
  closed;
* attribute values: a value-less attribute is ``""``, a repeated attribute
  keeps its last value, and the attributes BeautifulSoup reads as lists of
  words (``class``, ``rel`` of ``<a>``, ``headers`` of ``<td>``...) hold their
  words joined by single spaces;
* text: entities are decoded (an unknown ``&foo;`` is the text ``&foo``,
  numeric references by the rules of the BeautifulSoup release the benchmark
  uses); the text between two events is one string, and one made of ASCII
  whitespace alone is one line break where it holds one, else one space
  (outside ``<pre>`` and ``<textarea>``); CDATA sections are text.

A tree keeps either the strings BeautifulSoup's ``.text`` reads (plain ``str``:
no comments, declarations, processing instructions, nor the strings inside
``script``, ``style``, ``template``, ``rt`` and ``rp``), or every string, each a
:class:`Text` saying what it is, for writing the tree back.
"""

from __future__ import annotations

import re
from html.entities import html5
from html.parser import HTMLParser

VOID = frozenset({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "menuitem", "meta", "param",
    "source", "track", "wbr", "basefont", "bgsound", "command", "frame", "image", "isindex", "nextid", "spacer",
})
"""The elements BeautifulSoup's HTML builders treat as empty: no end tag, nothing inside."""

_LIST_VALUED = frozenset({"class", "accesskey", "dropzone"})
_LIST_VALUED_BY_TAG = {"a": frozenset({"rel", "rev"}), "link": frozenset({"rel", "rev"}),
                       "td": frozenset({"headers"}), "th": frozenset({"headers"}),
                       "form": frozenset({"accept-charset"}), "object": frozenset({"archive"}),
                       "area": frozenset({"rel"}), "icon": frozenset({"sizes"}), "iframe": frozenset({"sandbox"}),
                       "output": frozenset({"for"})}
"""The attributes BeautifulSoup reads as lists of words, on every element and on some."""
_WORD = re.compile(r"\S+")


def is_list_valued(tag: str, key: str) -> bool:
    """Whether BeautifulSoup reads attribute ``key`` of ``tag`` as a list of
    words (written back joined by single spaces)."""
    by_tag = _LIST_VALUED_BY_TAG.get(tag)
    return key in _LIST_VALUED or (by_tag is not None and key in by_tag)


_STRING_CONTAINERS = frozenset({"script", "style", "template", "rt", "rp"})
"""Elements whose strings are of kinds ``.text`` leaves out."""
PRESERVING = frozenset({"pre", "textarea"})
"""Elements inside which a whitespace-only string is kept as written."""
ASCII_SPACES = "\x20\x0a\x09\x0c\x0d"
"""What BeautifulSoup takes for whitespace (a string of it alone is one space or line break)."""
_SPECIAL = _STRING_CONTAINERS | PRESERVING | VOID

_ENTITIES: dict[str, str] = {}
for _name, _character in html5.items():
    _ENTITIES.setdefault(_name[:-1] if _name.endswith(";") else _name, _character)
_DECIMAL_LEAD = re.compile("^([0-9]+)(.*)")
_HEX_LEAD = re.compile("^([0-9a-f]+)(.*)")


class Element:
    """An element: its name, attributes, children (elements and strings) and parent."""

    __slots__ = ("name", "attrs", "children", "parent")

    def __init__(self, name: str, attrs: dict[str, str], parent: Element | None):
        self.name, self.attrs, self.children, self.parent = name, attrs, [], parent

    def find_all(self, names: frozenset | set) -> list[Element]:
        """The elements under it named one of ``names``, in document order."""
        found, stack = [], list(reversed(self.children))
        while stack:
            node = stack.pop()
            if type(node) is Element:
                if node.name in names:
                    found.append(node)
                stack.extend(reversed(node.children))
        return found

    def descendants(self):
        """Every node under it (elements and strings), in document order."""
        stack = list(reversed(self.children))
        while stack:
            node = stack.pop()
            yield node
            if type(node) is Element:
                stack.extend(reversed(node.children))

    def text(self) -> str:
        """Every string under it, joined (in a tree of text strings only, its ``.text``)."""
        parts, stack = [], list(reversed(self.children))
        while stack:
            node = stack.pop()
            if type(node) is Element:
                stack.extend(reversed(node.children))
            else:
                parts.append(node)
        return "".join(parts)


class Text(str):
    """A string of a tree that keeps every string; ``kind`` says which:
    ``text`` (the strings of ``script`` and ``style`` too), ``comment``,
    ``doctype``, ``cdata``, ``declaration`` or ``pi``."""

    kind = "text"


def text_node(text: str, kind: str = "text") -> Text:
    node = Text(text)
    if kind != "text":
        node.kind = kind
    return node


def numeric_reference(number: int) -> str:
    """A numeric character reference's character, as BeautifulSoup 4.15 reads
    it (the HTML rules: windows-1252 for 0x80 to 0x9F)."""
    if number == 0 or number > 0x10FFFF or 0xD800 <= number <= 0xDFFF:
        return "\ufffd"
    if 0x80 <= number <= 0x9F:
        try:
            return bytes([number]).decode("cp1252")
        except UnicodeDecodeError:
            return chr(number)
    return chr(number)


def _numeric_reference_4_11(name: str) -> str:
    """A numeric character reference's character as BeautifulSoup 4.11 reads
    it: a number below 256 a windows-1252 byte where it is one (so ``&#0;`` is
    U+0000), else the code point where there is one, else U+FFFD."""
    number = int(name.lstrip("xX"), 16) if name[:1] in ("x", "X") else int(name)
    data = None
    if number < 256:
        try:
            data = bytes([number]).decode("windows-1252")
        except UnicodeDecodeError:
            pass
    if not data:
        try:
            data = chr(number)
        except (ValueError, OverflowError):
            pass
    return data or "\ufffd"


class SoupTreeBuilder(HTMLParser):
    """The tree of the HTML fed to it, under :attr:`root` (named ``[document]``).

    ``all_strings``: keep every string as a :class:`Text` (for writing the tree
    back), not only the text strings. ``bs4_4_11``: BeautifulSoup 4.11's rules
    where later releases differ: its numeric references, and a ``<br/>`` (any
    void element written closed) that follows a ``<br>`` stays open, taking what
    follows, as that ``<br>``'s end tag to pass over is spent on it.

    Markup that ``html.parser`` refuses raises its error (``AssertionError``
    for some declarations), and a decimal reference too long for ``int()``
    ``ValueError``, as they do under BeautifulSoup."""

    def __init__(self, *, all_strings: bool = False, bs4_4_11: bool = False):
        super().__init__(convert_charrefs=False)
        self.root = Element("[document]", {}, None)
        self._all_strings, self._bs4_4_11 = all_strings, bs4_4_11
        self._stack = [self.root]
        self._open: dict[str, int] = {}  # how many elements of each name are open
        self._closed_voids: dict[str, int] = {}  # void elements closed as opened: their end tags to pass over
        self._hidden = 0  # open string containers
        self._preserving = 0  # open <pre> and <textarea>
        self._pending: list[str] = []

    def _flush(self, kind: str = "text") -> None:
        if not self._pending:
            return
        text = "".join(self._pending)
        self._pending = []
        if not self._preserving and not text.strip(ASCII_SPACES):
            text = "\n" if "\n" in text else " "
        if self._all_strings:
            self._stack[-1].children.append(text_node(text, kind))
        elif (kind == "text" and not self._hidden) or kind == "cdata":
            self._stack[-1].children.append(text)

    def handle_starttag(self, tag, attrs, closes_itself: bool = False):
        if self._pending:
            self._flush()
        values: dict[str, str] = {}
        if attrs:
            by_tag = _LIST_VALUED_BY_TAG.get(tag)
            for key, value in attrs:
                if value is None:
                    value = ""
                elif key in _LIST_VALUED or (by_tag is not None and key in by_tag):
                    value = " ".join(_WORD.findall(value))
                values[key] = value
        stack = self._stack
        parent = stack[-1]
        element = Element(tag, values, parent)
        parent.children.append(element)
        stack.append(element)
        opened = self._open
        opened[tag] = opened.get(tag, 0) + 1
        if tag in _SPECIAL:
            if tag in _STRING_CONTAINERS:
                self._hidden += 1
            elif tag in PRESERVING:
                self._preserving += 1
            elif not closes_itself:  # (a void element)
                self._close(tag)
                self._closed_voids[tag] = self._closed_voids.get(tag, 0) + 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs, closes_itself=True)
        if self._bs4_4_11:
            self.handle_endtag(tag)
        else:
            if self._pending:
                self._flush()
            self._close(tag)

    def handle_endtag(self, tag):
        if tag in self._closed_voids and self._closed_voids[tag]:
            self._closed_voids[tag] -= 1
            return
        if self._pending:
            self._flush()
        self._close(tag)

    def _close(self, tag: str) -> None:
        stack = self._stack
        if stack[-1].name == tag:  # (the usual case: the last element opened; never the root)
            stack.pop()
            self._open[tag] -= 1
            if tag in _SPECIAL:
                self._hidden -= tag in _STRING_CONTAINERS
                self._preserving -= tag in PRESERVING
            return
        if not self._open.get(tag):
            return
        k = len(stack) - 1
        while stack[k].name != tag:
            k -= 1
        for element in stack[k:]:
            name = element.name
            self._open[name] -= 1
            if name in _SPECIAL:
                self._hidden -= name in _STRING_CONTAINERS
                self._preserving -= name in PRESERVING
        del stack[k:]

    def handle_data(self, data):
        self._pending.append(data)

    def handle_charref(self, name):
        if self._bs4_4_11:
            self._pending.append(_numeric_reference_4_11(name))
            return
        base, body = (16, name[1:]) if name[:1] in ("x", "X") else (10, name)
        try:
            self._pending.append(numeric_reference(int(body, base)))
        except ValueError:
            # (the number it starts with, then the rest as text; none: the rest as text)
            lead = (_HEX_LEAD if base == 16 else _DECIMAL_LEAD).search(body)
            if lead is None:
                self._pending.append(body)
            else:
                self._pending.append(numeric_reference(int(lead.group(1), base)))
                self._pending.append(lead.group(2))

    def handle_entityref(self, name):
        character = _ENTITIES.get(name)
        self._pending.append(character if character is not None else "&" + name)

    def handle_comment(self, data):
        self._flush()
        self._pending.append(data)
        self._flush("comment")

    def handle_decl(self, decl):
        self._flush()
        self._pending.append(decl[len("DOCTYPE "):])
        self._flush("doctype")

    def unknown_decl(self, data):
        self._flush()
        cdata = data.upper().startswith("CDATA[")
        self._pending.append(data[len("CDATA["):] if cdata else data)
        self._flush("cdata" if cdata else "declaration")

    def handle_pi(self, data):
        self._flush()
        self._pending.append(data)
        self._flush("pi")

    def close(self):
        super().close()
        self._flush()


def parse(markup: str, *, all_strings: bool = False, bs4_4_11: bool = False) -> Element:
    """The tree of ``markup`` (its root; see :class:`SoupTreeBuilder` for the options and errors)."""
    builder = SoupTreeBuilder(all_strings=all_strings, bs4_4_11=bs4_4_11)
    builder.feed(markup)
    builder.close()
    return builder.root
