// The HTML report of convertables score: sorting the documents' table, and each
// document's detail drawn from its embedded JSON when its section is opened.
// Text from the documents is only ever set as text (textContent), never as markup.
(function () {
  "use strict";

  var META = JSON.parse(document.getElementById("report-meta").textContent);

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  // Figures named so are fractions (shown with four decimals, 1 as 1.0000); others are counts.
  var FRACTION = /precision|recall|f1|iou|score|area|teds|grits/i;

  function fmt(v, name) {
    if (v === null || v === undefined) return "";
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (typeof v === "number" && (!Number.isInteger(v) || (name && FRACTION.test(name)))) return v.toFixed(4);
    return String(v);
  }

  // What the metric calls a figure by its key (teds: TEDS); others go by their keys.
  function named(key) {
    return (META.names && Object.prototype.hasOwnProperty.call(META.names, key)) ? META.names[key] : key;
  }

  // -- sorting the documents' table ----------------------------------------------------------

  function sortable(table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      th.addEventListener("click", function () {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var numeric = th.dataset.type === "number";
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[col], y = b.cells[col], order;
          if (numeric) {
            var hx = x.hasAttribute("data-v"), hy = y.hasAttribute("data-v");
            if (!hx || !hy) return hx === hy ? a.dataset.i - b.dataset.i : (hx ? -1 : 1);  // no value: last
            order = parseFloat(x.dataset.v) - parseFloat(y.dataset.v);
          } else {
            order = x.textContent.localeCompare(y.textContent);
          }
          return (ascending ? order : -order) || a.dataset.i - b.dataset.i;
        });
        var fragment = document.createDocumentFragment();
        rows.forEach(function (r) { fragment.appendChild(r); });
        body.appendChild(fragment);
      });
    });
  }

  // -- the legend ----------------------------------------------------------------------------

  function key(cls, text, swatchClass) {
    var k = el("span", "key");
    var s = el("span", "swatch " + (swatchClass || "cell") + " " + cls);
    k.appendChild(s);
    k.appendChild(el("span", null, text));
    return k;
  }

  function legend() {
    var host = document.getElementById("legend");
    var kinds = META.kinds || [];
    var add = function (node) { host.appendChild(node); };
    if (kinds.indexOf("relations") >= 0) {
      add(el("strong", null, "Cells:"));
      add(key("o-A", "all its relations found (result: all right)"));
      add(key("o-S", "some lost (result: some false)"));
      add(key("o-N", "none found (result: all false)"));
      add(key("o-x", "no relations (blank, or alone)"));
      add(el("span", "key", "dashed outline: a table paired with none; click a cell to list its relations"));
    }
    if (kinds.indexOf("cells") >= 0) {
      add(el("strong", null, "Cells:"));
      add(key("o-A", "matched whole"));
      add(key("o-S", "matched in part"));
      add(key("o-N", "not matched"));
      add(el("span", "key", "click a cell to name the cell it is matched with"));
    }
    if (kinds.indexOf("tables") >= 0) {
      add(el("span", "key", "Cells are drawn without outcomes (the metric scores whole tables); a dashed " +
        "outline marks a table paired with none."));
    }
    var regions = kinds.indexOf("regions") >= 0, marmot = META.metric === "marmot";
    if (regions || META.boxes) {
      add(el("strong", null, "Boxes (solid: ground truth, dashed: result):"));
      if (marmot) {
        add(key("o-A", "acceptable", "box"));
        add(key("o-S", "not acceptable", "box"));
        add(key("o-N", "missed or fake", "box"));
      } else if (regions) {
        add(key("o-A", "complete and pure", "box"));
        add(key("o-S", "paired, not complete or not pure", "box"));
        add(key("o-N", "paired with none", "box"));
      } else {
        add(key("o-A", "matched (at the IoU chosen)", "box"));
        add(key("o-N", "not matched", "box"));
      }
    }
    if (regions) {
      add(el("strong", null, "Items:"));
      [["--item-found", "in both"], ["--item-missed", "missed"], ["--item-false", "false"]].forEach(function (d) {
        var k = el("span", "key"), dot = el("span", "dot");
        dot.style.background = "var(" + d[0] + ")";
        k.appendChild(dot);
        k.appendChild(el("span", null, d[1]));
        add(k);
      });
    }
  }

  // -- one document --------------------------------------------------------------------------

  function outcomeClass(outcome, level) {
    if (!outcome) return "";
    var c = outcome.charAt(Math.min(level, outcome.length - 1));
    return c === "-" ? "o-x" : "o-" + c;
  }

  function cellText(grid, k) {
    var c = grid.cells[k];
    return c[4] === "" ? "[row " + (c[0] + 1) + ", column " + (c[1] + 1) + "]" : "\u201c" + c[4] + "\u201d";
  }

  function drawGrid(view, grid, side) {
    var g = el("div", "grid");
    g.style.gridTemplateColumns = "repeat(" + Math.max(grid.cols, 1) + ", minmax(1.2em, max-content))";
    g.style.gridTemplateRows = "repeat(" + Math.max(grid.rows, 1) + ", minmax(1.2em, auto))";
    var fragment = document.createDocumentFragment();
    grid.cells.forEach(function (c, k) {
      var d = el("div", "cell", c[4]);
      d.style.gridRow = (c[0] + 1) + " / span " + c[2];
      d.style.gridColumn = (c[1] + 1) + " / span " + c[3];
      d.dataset.k = k;
      d.dataset.side = side;
      if (grid.outcome) {
        d.dataset.o = grid.outcome[k];
        var cls = outcomeClass(grid.outcome[k], view.level);
        if (cls) d.classList.add(cls);
      }
      fragment.appendChild(d);
    });
    g.appendChild(fragment);
    return g;
  }

  function statusWords(side, found) {
    if (side === "gt") return found ? "found" : "missed";
    return found ? "right" : "false";
  }

  function levelsOf(view, mask, want) {
    var out = [];
    view.levels.forEach(function (name, i) { if (((mask >> i) & 1) === want) out.push(name); });
    return out;
  }

  function showCell(view, pairEl, pair, side, k) {
    var grid = pair[side], other = side === "gt" ? pair.result : pair.gt;
    Array.prototype.forEach.call(pairEl.querySelectorAll(".cell.sel, .cell.rel, .cell.partner"), function (c) {
      c.classList.remove("sel", "rel", "partner");
    });
    var own = pairEl.querySelector('.side.' + side + ' .cell[data-k="' + k + '"]');
    if (own) own.classList.add("sel");
    var info = pairEl.querySelector(".info");
    info.textContent = "";
    var c = grid.cells[k];
    var where = "row " + (c[0] + 1) + ", column " + (c[1] + 1) +
      (c[2] > 1 || c[3] > 1 ? " (spans " + c[2] + " \u00d7 " + c[3] + ")" : "");
    info.appendChild(el("h4", null, (side === "gt" ? "Ground-truth" : "Result") + " cell " + cellText(grid, k) +
      ": " + where));
    if (!grid.relations) {
      info.appendChild(el("p", null, "The metric records no relations of cells."));
    } else {
      var mine = grid.relations.filter(function (r) { return r[0] === k || r[1] === k; });
      if (!mine.length) info.appendChild(el("p", null, "No relations: the cell is blank, or has no neighbour."));
      var list = el("ul", "relations");
      mine.forEach(function (r) {
        var found = ((r[4] >> view.level) & 1) === 1;
        var text = cellText(grid, r[0]) + (r[2] === "H" ? " \u2192 " : " \u2193 ") + cellText(grid, r[1]);
        if (r[3] !== null && r[3] !== undefined && r[3] > 0) text += " (" + r[3] + " empty between)";
        text += ": " + statusWords(side, found);
        if (view.levels.length > 1) {
          var yes = levelsOf(view, r[4], 1);
          text += yes.length ? " (" + statusWords(side, true) + " at " + view.measure + " " + yes.join(", ") + ")"
                             : " (at every IoU threshold)";
        }
        var li = el("li", "relation " + (found ? "found" : "lost"), text);
        li.dataset.status = statusWords(side, found);
        list.appendChild(li);
        var end = r[0] === k ? r[1] : r[0];
        var endEl = pairEl.querySelector('.side.' + side + ' .cell[data-k="' + end + '"]');
        if (endEl && end !== k) endEl.classList.add("rel");
      });
      if (mine.length) info.appendChild(list);
    }
    if (grid.partners && other) {
      var mapped = grid.partners[k][Math.min(view.level, grid.partners[k].length - 1)];
      var at = view.levels.length > 1 ? " at " + view.measure + " \u2265 " + view.levels[view.level] : "";
      var line;
      if (mapped[0] < 0) {
        line = "Mapped to no " + (side === "gt" ? "result" : "ground-truth") + " cell" + at + ".";
      } else {
        line = "Mapped to " + (side === "gt" ? "result" : "ground-truth") + " cell " + cellText(other, mapped[0]) +
          ", " + view.measure + " " + mapped[1].toFixed(3) + (at ? " (" + at.slice(1) + ")" : "") + ".";
        var partner = pairEl.querySelector('.side.' + (side === "gt" ? "result" : "gt") +
          ' .cell[data-k="' + mapped[0] + '"]');
        if (partner) partner.classList.add("partner");
      }
      info.appendChild(el("p", "partner-line", line));
    }
  }

  function caption(pair) {
    var parts = [];
    var s = pair.scores || {};
    var names = [];
    if (pair.gt) names.push("ground-truth table " + pair.gt.table + (pair.gt.page !== null ? " (page " +
      pair.gt.page + ")" : ""));
    if (pair.result) names.push("result table " + pair.result.table + (pair.result.page !== null ? " (page " +
      pair.result.page + ")" : ""));
    parts.push(names.join(" \u2194 "));
    Object.keys(s).forEach(function (name) {
      if (["gt_table", "result_table", "page", "counted"].indexOf(name) >= 0) return;
      parts.push(named(name) + " " + fmt(s[name], name));
    });
    if (pair.counted === false) parts.push("not counted");
    return parts.join(" \u00b7 ");
  }

  function drawPair(view, pair) {
    var p = el("div", "pair");
    p.appendChild(el("p", "caption", caption(pair)));
    var sides = el("div", "sides");
    ["gt", "result"].forEach(function (side) {
      var grid = pair[side], box = el("div", "side " + side);
      var lone = grid && !pair[side === "gt" ? "result" : "gt"];
      var heading = el("h4", null, (side === "gt" ? "ground truth" : "result") + (grid ? " \u00b7 table " +
        grid.table : ""));
      if (lone) {
        box.classList.add("unpaired");
        heading.appendChild(el("span", "badge", "unpaired"));
      }
      box.appendChild(heading);
      if (!grid) {
        box.appendChild(el("div", "missing", side === "gt" ? "no ground-truth table paired"
                                                            : "no result table paired"));
      } else if (!grid.cells.length) {
        box.appendChild(el("div", "missing", "no cells"));
      } else {
        box.appendChild(drawGrid(view, grid, side));
      }
      sides.appendChild(box);
    });
    p.appendChild(sides);
    var info = el("div", "info", pair.gt && pair.gt.relations || pair.result && pair.result.relations
      ? "Click a cell to list its relations." : "Click a cell to see where it is.");
    info.setAttribute("aria-live", "polite");
    p.appendChild(info);
    p.addEventListener("click", function (e) {
      var c = e.target.closest(".cell");
      if (c) showCell(view, p, pair, c.dataset.side, parseInt(c.dataset.k, 10));
    });
    p.addEventListener("mouseover", function (e) {
      var c = e.target.closest(".cell");
      if (c && !c.title) {
        var grid = pair[c.dataset.side], k = parseInt(c.dataset.k, 10);
        var n = grid.relations ? grid.relations.filter(function (r) { return r[0] === k || r[1] === k; }) : null;
        c.title = grid.cells[k][4] + (n ? "\n" + n.length + " relation(s), " + n.filter(function (r) {
          return ((r[4] >> view.level) & 1) === 1;
        }).length + " " + statusWords(c.dataset.side, true) : "");
      }
    });
    return p;
  }

  function scoreTable(pairs) {
    var keys = [];
    pairs.forEach(function (p) { Object.keys(p.scores || {}).forEach(function (k) {
      if (keys.indexOf(k) < 0) keys.push(k);
    }); });
    var t = el("table", "scores"), head = t.createTHead().insertRow();
    keys.forEach(function (k) { head.appendChild(el("th", null, named(k))); });
    var body = t.createTBody();
    pairs.forEach(function (p) {
      var row = body.insertRow();
      keys.forEach(function (k) { row.insertCell().textContent = fmt((p.scores || {})[k], k); });
    });
    return t;
  }

  var ITEM_COLOURS = { A: "--item-found", N: "--item-missed", F: "--item-false" };

  function drawPage(view, page) {
    var wrap = el("div", "sketch");
    wrap.appendChild(el("h4", null, "page " + page.page));
    var sheet = el("div", "sheet"), width = 300, scale = width / page.width;
    var height = Math.max(1, Math.round(page.height * scale));
    sheet.style.height = height + "px";
    if (page.items && page.items.length) {
      var canvas = el("canvas");
      canvas.width = width;
      canvas.height = height;
      var ctx = canvas.getContext("2d"), style = getComputedStyle(document.documentElement);
      page.items.forEach(function (it) {
        ctx.fillStyle = style.getPropertyValue(ITEM_COLOURS[it[2]] || "--ink");
        ctx.fillRect(it[0] * scale - 1, it[1] * scale - 1, 2, 2);
      });
      sheet.appendChild(canvas);
    }
    page.boxes.forEach(function (b) {
      var d = el("div", "box " + b[4]);
      d.style.left = (b[0] * scale) + "px";
      d.style.top = (b[1] * scale) + "px";
      d.style.width = Math.max(2, (b[2] - b[0]) * scale) + "px";
      d.style.height = Math.max(2, (b[3] - b[1]) * scale) + "px";
      d.dataset.o = b[6];
      var cls = outcomeClass(b[6], view.level);
      if (cls) d.classList.add(cls);
      d.title = b[5];
      sheet.appendChild(d);
    });
    wrap.appendChild(sheet);
    return wrap;
  }

  function recolour(host, level) {
    Array.prototype.forEach.call(host.querySelectorAll("[data-o]"), function (e) {
      e.classList.remove("o-A", "o-S", "o-N", "o-x");
      var cls = outcomeClass(e.dataset.o, level);
      if (cls) e.classList.add(cls);
    });
  }

  function draw(details) {
    details.dataset.drawn = "1";
    var host = details.querySelector(".detail");
    var script = document.getElementById("detail-" + details.dataset.i);
    if (!script) return;
    var data = JSON.parse(script.textContent);
    if (data.error) {
      host.appendChild(el("p", "note", data.error));
      return;
    }
    var view = { level: 0, levels: data.levels || [], measure: data.measure || "IoU" };
    if (view.levels.length > 1) {
      var picker = el("div", "levels", view.measure + " threshold: ");
      view.levels.forEach(function (name, i) {
        var b = el("button", null, name);
        b.type = "button";
        b.setAttribute("aria-pressed", i === 0 ? "true" : "false");
        b.addEventListener("click", function () {
          view.level = i;
          Array.prototype.forEach.call(picker.querySelectorAll("button"), function (x) {
            x.setAttribute("aria-pressed", x === b ? "true" : "false");
          });
          recolour(host, i);
        });
        picker.appendChild(b);
      });
      host.appendChild(picker);
    }
    (data.notes || []).forEach(function (n) { host.appendChild(el("p", "note", n)); });
    var sketches = null;
    if (data.pages && data.pages.length) {
      sketches = el("div", "sketches");
      data.pages.forEach(function (page) { sketches.appendChild(drawPage(view, page)); });
    }
    if (data.kind === "regions") {
      if (data.pairs.length) host.appendChild(scoreTable(data.pairs));
    } else {
      // Where cells have no outcome, where the tables lie says most: the pages come first.
      if (sketches && data.kind !== "relations") {
        host.appendChild(sketches);
        sketches = null;
      }
      data.pairs.forEach(function (pair) { host.appendChild(drawPair(view, pair)); });
      if (!data.pairs.length) host.appendChild(el("p", "note", "No tables on either side."));
    }
    if (sketches) host.appendChild(sketches);
  }

  // The sticky legend's height, which a section scrolled to keeps clear of (CSS scroll-margin-top).
  function legendClearance() {
    var host = document.getElementById("legend");
    if (host) document.documentElement.style.setProperty("--legend-height", host.offsetHeight + "px");
  }

  function open(i, scroll) {
    var d = document.getElementById("doc-" + i);
    if (!d) return;
    d.open = true;
    if (!d.dataset.drawn) draw(d);
    if (scroll) d.scrollIntoView({ block: "start" });  // (after drawing: its title below the legend)
  }

  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (d.matches && d.matches("details.doc") && d.open && !d.dataset.drawn) draw(d);
  }, true);
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[data-open]");
    if (a) open(a.dataset.open);
  });
  window.addEventListener("hashchange", function () {
    var m = /^#doc-(\d+)$/.exec(location.hash);
    if (m) open(m[1], true);
  });

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), sortable);
  legend();
  legendClearance();
  window.addEventListener("resize", legendClearance);
  var first = /^#doc-(\d+)$/.exec(location.hash);
  if (first) open(first[1], true);
  document.body.dataset.ready = "1";
})();
