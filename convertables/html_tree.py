"""The HTML parse under :mod:`convertables.html_tables`: libxml2's HTML parser
(lxml's, in recovery mode, no network, no ``huge_tree``), its tree read
directly, and for a page nested deeper than libxml2 builds its own tree, a tree
built from the parser's events instead (:class:`Node`), with no limit on depth.

It is the parser that beautifulsoup's lxml tree builder drives, fed the same
text, so the tree is the one beautifulsoup gave, without beautifulsoup's own
tree of Python objects on top of the parse. Elements after ``</html>`` (further
top-level elements in libxml2's tree) are kept.
"""

from __future__ import annotations

from lxml import etree

_STRING_CONTAINERS = {"script", "style", "template", "rt", "rp"}  # beautifulsoup's: their text is not text
_RESOURCE_LIMIT = etree.ErrorTypes.ERR_RESOURCE_LIMIT
# Every <table>, and every element that may carry a page break, in document order.
_TABLES_AND_STYLES = etree.XPath("descendant-or-self::table | descendant-or-self::*[@style]")


def tables_and_styles(top, may_have_styles: bool):
    """Every ``<table>`` under ``top`` (itself included) and, where the page may
    have style attributes, every element that has one, in document order."""
    if isinstance(top, Node):
        return top.tables_and_styles()
    if not may_have_styles:
        return top.iter("table")  # found faster than by the XPath
    return _TABLES_AND_STYLES(top)


def _parser(**target) -> etree.HTMLParser:
    # A new parser each call (lxml parsers are not thread-safe to share). libxml2's
    # HTML parser in recovery mode, as beautifulsoup's lxml builder set it up: no
    # network, no huge_tree (libxml2's limits stay), blank text kept; comments and
    # processing instructions are kept in the tree (their tails are text) and skipped.
    return etree.HTMLParser(
        recover=True, no_network=True, huge_tree=False, remove_blank_text=False,
        remove_comments=False, remove_pis=False, collect_ids=False, default_doctype=False, **target,
    )


class Node:
    """An element (or a comment) of a tree built from parse events, with the part
    of lxml's element interface that this module uses. Such a tree holds what
    lxml's cannot: any depth, and any name and text that the HTML parser gave."""

    __slots__ = ("tag", "attrib", "text", "tail", "parent", "children")
    sourceline = None

    def __init__(self, tag, attrib: dict, parent: Node | None):
        self.tag = tag
        self.attrib = attrib
        self.text = self.tail = None
        self.parent = parent
        self.children: list[Node] = []

    def get(self, key: str, default=None):
        return self.attrib.get(key, default)

    def items(self) -> list[tuple[str, str]]:
        return list(self.attrib.items())

    def __iter__(self):
        return iter(self.children)

    def __len__(self) -> int:
        return len(self.children)

    def iter(self, tag: str):
        """The elements named ``tag`` in this subtree, in document order."""
        stack = [self]
        while stack:
            node = stack.pop()
            if node.tag == tag:
                yield node
            stack.extend(reversed(node.children))

    def iterancestors(self):
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def tables_and_styles(self) -> list[Node]:
        stack, found = [self], []
        while stack:
            node = stack.pop()
            if node.tag == "table" or "style" in node.attrib:
                found.append(node)
            stack.extend(reversed(node.children))
        return found


class _Events:
    """A parser target that builds a tree of :class:`Node` from the parse
    events, as beautifulsoup did: every top-level element kept, text runs
    joined, what is left open at the end closed."""

    def __init__(self):
        self.tops: list[Node] = []
        self._open: list[Node] = []
        self._last: Node | None = None  # the node whose text (or, once ended, tail) comes next
        self._in_tail = False
        self._data: list[str] = []

    def _flush(self) -> None:
        if self._data and self._last is not None:
            text = "".join(self._data)
            if self._in_tail:
                self._last.tail = (self._last.tail or "") + text
            else:
                self._last.text = (self._last.text or "") + text
        self._data = []

    def _add(self, tag, attrib: dict) -> Node:
        self._flush()
        parent = self._open[-1] if self._open else None
        node = Node(tag, attrib, parent)
        if parent is not None:
            parent.children.append(node)
        self._last = node
        return node

    def start(self, tag, attrib):
        node = self._add(tag, dict(attrib))
        if not self._open:
            self.tops.append(node)
        self._open.append(node)
        self._in_tail = False

    def end(self, tag):
        self._flush()
        self._last = self._open.pop()
        self._in_tail = True

    def data(self, data):
        self._data.append(data)

    def comment(self, text):
        self._add(etree.Comment, {}).text = text
        self._in_tail = True

    def pi(self, target, data=None):
        self._add(etree.PI, {}).text = data
        self._in_tail = True

    def close(self):
        while self._open:
            self.end(None)
        self._flush()
        return self.tops


def parse(text: str) -> list:
    """The top-level elements of ``text`` parsed as HTML, in document order: none
    for a document of only whitespace, comments or a doctype, and more than one
    where elements follow ``</html>``."""
    parser = _parser()
    parser.feed(text)  # a str is fed to libxml2 as UTF-8: the <meta charset> is not obeyed twice
    root = parser.close()
    if any(e.type == _RESOURCE_LIMIT for e in parser.feed_error_log):
        # libxml2 stops building its own tree at a limit (elements nested 256 deep)
        # and drops the rest of the page; its parse events have no such limit. The
        # tree is built from them instead (slower; what beautifulsoup did).
        parser = _parser(target=_Events())
        parser.feed(text)
        return parser.close()
    if root is None:
        return []
    return [root, *(e for e in root.itersiblings() if e.tag.__class__ is str)]


def title_text(title) -> str:
    """bs4's ``get_text(strip=True)``: each text run stripped, the non-empty ones
    joined with nothing; text inside script, style, template, rt and rp elements
    (anywhere above it too) is not text."""
    for ancestor in title.iterancestors():
        if ancestor.tag in _STRING_CONTAINERS:
            return ""
    pieces = [title.text]
    stack = [iter(title)]
    tails: list[str | None] = []
    while stack:
        for child in stack[-1]:
            if child.tag.__class__ is str and child.tag not in _STRING_CONTAINERS:
                pieces.append(child.text)
                stack.append(iter(child))
                tails.append(child.tail)
                break
            pieces.append(child.tail)
        else:
            stack.pop()
            if tails:
                pieces.append(tails.pop())
    return "".join(piece.strip() for piece in pieces if piece)

