"""The tree of BeautifulSoup's html.parser builder (convertables.soup_tree): the
expected trees are those BeautifulSoup 4.15 (and 4.11, where its rules apply)
gives for the same markup."""

from __future__ import annotations

import pytest

from convertables.soup_tree import Element, parse


def shape(node: Element, kinds: bool = False) -> list:
    """The tree as nested lists: [name, attributes, children...], strings as
    themselves (or (kind, string) where ``kinds``)."""
    out = []
    for child in node.children:
        if type(child) is Element:
            out.append([child.name, child.attrs, *shape(child, kinds)])
        else:
            out.append((child.kind, str(child)) if kinds else child)
    return out


@pytest.mark.parametrize("markup, tree", [
    # tags nest as written; an end tag closes what was opened after the last open element of its name
    ("<table><tr><td>a<td>b</tr><tr><td>c</table>x",
     [["table", {}, ["tr", {}, ["td", {}, "a", ["td", {}, "b"]]], ["tr", {}, ["td", {}, "c"]]], "x"]),
    # an end tag with no open element of its name is passed over, yet ends the string before it
    ("<p>a</b>b</p>", [["p", {}, "a", "b"]]),
    # void elements close as they open; their end tag is passed over without ending the string
    ("<td>a<br>b</br>c<img src=x>d</td>", [["td", {}, "a", ["br", {}], "bc", ["img", {"src": "x"}], "d"]]),
    ("<td/>x<p/>y", [["td", {}], "x", ["p", {}], "y"]),
    # whitespace alone between tags: one line break where it holds one, else one space; kept in <pre>
    ("<tr>  <td> a  b </td>\n\t <td>\t</td></tr><pre> \n </pre>",
     [["tr", {}, " ", ["td", {}, " a  b "], "\n", ["td", {}, " "]], ["pre", {}, " \n "]]),
    # entities: known ones with or without the semicolon, unknown ones as written without it
    ("&amp;&amp &lt&notin;&notit;&foo;&foo &AMP;", ["&& <∉&notit&foo&foo &"]),
    # numeric references: U+FFFD for 0, surrogates and beyond U+10FFFF; windows-1252 for 0x80 to 0x9F
    ("&#65;&#x42;&#X43;&#0;&#x80;&#x81;&#150;&#xD800;&#x110000;&#99999999;",
     ["ABC\ufffd€\x81–\ufffd\ufffd\ufffd"]),
    # text left out: comments, declarations, processing instructions, and the strings of script and the like
    ("<td>a<!-- c -->b<!DOCTYPE html><?pi?><script>s</script><rt>r<b>t</b></rt></td>",
     [["td", {}, "a", "b", ["script", {}], ["rt", {}, ["b", {}]]]]),
    # CDATA sections are text, even inside ruby text; an empty one a space
    ("<rt><![CDATA[x]]></rt><![CDATA[]]>", [["rt", {}, "x"], " "]),
    # attributes: value-less "", the last of repeated ones, words of list-valued ones joined by single spaces
    ("<td colspan=2 colspan='3' nowrap class=' a \n b ' headers=' h ' rel=' r  s '>x",
     [["td", {"colspan": "3", "nowrap": "", "class": "a b", "headers": "h", "rel": " r  s "}, "x"]]),
    ("<a rel=' r  s ' title=' t  u '><TD>x</TD>", [["a", {"rel": "r s", "title": " t  u "}, ["td", {}, "x"]]]),
    # a <br/> after a <br>: closed at once
    ("<br>a<br/>b", [["br", {}], "a", ["br", {}], "b"]),
])
def test_the_tree_is_beautifulsoups(markup, tree):
    assert shape(parse(markup)) == tree


def test_a_tree_of_every_string_says_what_each_is():
    root = parse("<td>a<!--c--><!DOCTYPE html><![CDATA[d]]><![if x]><?p?><script>&amp;s</script></td>", all_strings=True)
    assert shape(root, kinds=True) == [["td", {}, ("text", "a"), ("comment", "c"), ("doctype", "html"),
                                        ("cdata", "d"), ("declaration", "if x"), ("pi", "p?"),
                                        ["script", {}, ("text", "&amp;s")]]]


def test_beautifulsoup_4_11_rules():
    # numeric references: a number below 256 a windows-1252 byte where it is one, else the code point
    assert shape(parse("&#0;&#x81;&#xD800;&#x110000;", bs4_4_11=True)) == ["\x00\x81\ud800\ufffd"]
    # a <br/> after a <br> stays open (the end tag to pass over is spent on it), taking what follows
    assert shape(parse("<br>a<br/>b", bs4_4_11=True)) == [["br", {}], "a", ["br", {}, "b"]]


def test_the_text_of_an_element_and_finding_elements():
    root = parse("<table><tr><td>a<b>b</b><!--c--></td><td>d<table><tr><td>e</td></tr></table></td></tr></table>")
    cells = root.find_all(frozenset({"td"}))
    assert [cell.text() for cell in cells] == ["ab", "de", "e"]
    assert cells[2].parent.parent.parent is cells[1]


@pytest.mark.parametrize("markup, error", [("<![foo[ x ]]>", AssertionError), ("&#" + "9" * 5000 + ";", ValueError)])
def test_markup_html_parser_refuses_raises_as_under_beautifulsoup(markup, error):
    with pytest.raises(error):
        parse(markup)
