// mjarena: what every page shares — tiles, the table of four seats, JSON requests. No framework, no build step.
"use strict";

const MJ = (() => {
  /** Make an element: el("div", {class: "x", text: "hi"}, child, ...). */
  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  let words = null;
  /** ``message`` in the page's language, its ``%(name)s`` filled from ``values``: the page gives the translations
   * (``<script type="application/json" id="words">``, see mjarena.web.viewer_words); without them, the English. */
  function t(message, values = {}) {
    if (words === null) {
      const node = document.getElementById("words");
      words = node ? JSON.parse(node.textContent) : {};
    }
    return (words[message] || message).replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
  }

  /** One tile picture: kind -1 is a hidden tile. */
  function tile(kind, names = {}, extra = "") {
    const name = kind < 0 ? "hidden" : (names[kind] || String(kind));
    const key = kind < 0 ? "back" : String(kind);
    // A replay exported as one HTML file carries its tile pictures (window.MJ_TILES: data: URLs).
    const src = (window.MJ_TILES && window.MJ_TILES[key]) || `/tiles/${key}.svg`;
    return el("img", {class: `tile ${extra}`.trim(), src,
                      alt: name, title: name, "data-kind": kind, draggable: "false"});
  }

  /** GET or POST JSON; throws an Error whose message is the server's (in the page's language: ``error_text``). */
  async function json(url, body) {
    const options = body === undefined ? {headers: {accept: "application/json"}}
      : {method: "POST", headers: {"content-type": "application/json", accept: "application/json"},
         body: JSON.stringify(body)};
    let response;
    try {
      response = await fetch(url, options);
    } catch (error) {
      throw new Error(t("The server cannot be reached: %(error)s", {error: error.message}));
    }
    let data = null;
    try { data = await response.json(); } catch (error) { data = null; }
    if (!response.ok) {
      const problem = new Error((data && (data.error_text || data.error)) || `${response.status} ${response.statusText}`);
      problem.status = response.status;
      throw problem;
    }
    return data;
  }

  /** An error as the viewer says it: its kind and detail in the page's language (mjarena.verdicts, written by the
   * server as ``reason_text`` and ``detail_text``), else as stored (a stable code, the judge's English). */
  function errorWords(error) {
    return `${error.reason_text || error.reason}: ${error.detail_text || error.detail || ""}`;
  }

  const meldNames = () => ({peng: t("PENG"), pong: t("PONG"), gang: t("GANG"), chi: t("CHI"), chow: t("CHOW")});
  // Where each seat sits, seen from the seat at the bottom: turns go 0 -> 1 -> 2 -> 3 counter-clockwise, so the
  // next seat is on the right, the one after across, the last on the left (as on Tenhou or Majsoul).
  const POSITIONS = ["self", "right", "across", "left"];

  /**
   * Draw the table: `snap` is a timeline snapshot, `info` = {seatNames, names, bots, you, clickable(kind),
   * onTile(kind), hints: {kind: distance}, selected: index in your hand, marks: {seat: text}, result,
   * winning: [{seat, tile}]}.
   */
  function table(snap, info) {
    const base = info.you === null || info.you === undefined ? 0 : info.you;
    const seats = [0, 1, 2, 3].map((step) => seatPanel((base + step) % 4, POSITIONS[step], snap, info));
    const turn = snap.turn === null || snap.turn === undefined ? "—" : info.seatNames[snap.turn];
    const centre = el("div", {class: "centre tablebar"},
      el("span", {class: "pill", id: "wall"}, t("wall %(count)s", {count: snap.wall})),
      el("span", {class: "pill", id: "turn"}, t("turn %(seat)s", {seat: turn})),
      snap.dice ? el("span", {class: "pill"}, t("dice %(dice)s", {dice: snap.dice.join("+")})) : null,
      snap.tai ? el("span", {class: "pill"}, t("%(seat)s scores %(total)s tai", {seat: info.seatNames[snap.tai.seat], total: snap.tai.total})) : null);
    return el("div", {class: `table${info.you === undefined || info.you === null ? "" : " playing"}`},
              el("div", {class: "seats"}, seats, centre));
  }

  function handTile(kind, drawn, index, number, info) {
    const names = info.names;
    const picture = tile(kind, names, drawn ? "drawn" : "");
    const winning = (info.winning || []).some((w) => w.seat === number && w.tile === kind);
    if (!(info.you === number && info.clickable && info.clickable(kind))) {
      if (winning && drawn) picture.classList.add("winning");
      return {node: picture, winning};
    }
    const hint = info.hints && info.hints[kind] !== undefined ? info.hints[kind] : null;
    const best = info.hints ? Math.min(...Object.values(info.hints)) : null;
    const name = names[kind] || String(kind);
    const slot = el("button", {class: `slot${drawn ? " drawn" : ""}${info.selected === index ? " selected" : ""}`,
      type: "button", "data-kind": kind, "data-index": index,
      title: hint === null ? `discard ${name}` : `discard ${name}: ${hint} tile(s) still needed after it`,
      onclick: () => info.onTile(kind)}, picture,
      hint === null ? null : el("span", {class: `hint${hint === best ? " best" : ""}`}, String(hint)));
    picture.classList.add("clickable");
    return {node: slot, winning: false};
  }

  function seatPanel(number, position, snap, info) {
    const seat = snap.seats[number];
    const names = info.names;
    const classes = ["seat", `pos-${position}`];
    if (snap.turn === number) classes.push("turn");
    if (seat.status !== "in") classes.push(seat.status);
    if (info.you === number) classes.push("you");
    if (info.marks && info.marks[number]) classes.push("erred");
    const badge = seat.status === "won" ? el("span", {class: "badge won"}, t("won"))
      : seat.status === "out" ? el("span", {class: "badge err"}, t("out")) : null;
    const error = info.marks && info.marks[number] ? el("span", {class: "badge err", title: info.marks[number]},
                                                        t("judge plays")) : null;
    const head = el("div", {class: "seathead"},
      el("b", {}, info.seatNames[number]), " ",
      el("span", {class: "bot"}, info.you === number ? t("you") : (info.bots ? info.bots[number] : "")), " ",
      badge, error,
      info.result ? el("span", {class: "badge"}, t("rank %(rank)s · %(points)s pt",
                                                   {rank: info.result[number].rank, points: info.result[number].points}))
        : null);
    const hand = el("div", {class: "hand", "aria-label": t("%(seat)s hand", {seat: info.seatNames[number]})});
    if (seat.hand === null) {
      hand.classList.add("hidden-hand");
      for (let i = 0; i < seat.hidden; i += 1) hand.append(tile(-1, names, "small"));
      hand.append(el("span", {class: "count"}, t("%(count)s tiles", {count: seat.hidden})));
    } else {
      let index = 0;
      let marked = false;
      const add = (kind, drawn) => {
        const made = handTile(kind, drawn, index, number, info);
        if (made.winning && !drawn && !marked && !(seat.drawn !== null && seat.drawn !== undefined)) {
          marked = true;  // won on a discard: the tile sits in the hand; mark one copy
          (made.node.tagName === "IMG" ? made.node : made.node.querySelector("img")).classList.add("winning");
        }
        hand.append(made.node);
        index += 1;
      };
      seat.hand.forEach((kind) => add(kind, false));
      if (seat.drawn !== null && seat.drawn !== undefined) add(seat.drawn, true);
    }
    const meldName = (meld) => {
      const name = meldNames()[meld.type] || meld.type;
      return meld.concealed ? t("%(meld)s (concealed)", {meld: name})
        : meld.from !== null && meld.from !== undefined ? t("%(meld)s from %(seat)s", {meld: name,
                                                                                     seat: info.seatNames[meld.from]})
          : name;
    };
    const melds = el("div", {class: "melds"}, seat.melds.map((meld) => el("span", {
      class: "meld", title: meldName(meld)},
      meld.tiles.map((kind, i) => tile(meld.concealed && (i === 0 || i === 3) ? -1 : kind, names, "small")))));
    const last = snap.last_discard;
    const discards = el("div", {class: "discards", "aria-label": t("%(seat)s discards",
                                                                  {seat: info.seatNames[number]})},
      seat.discards.map((item, i) => tile(item.tile, names,
        `small${item.claimed ? " claimed" : ""}${last && last.seat === number && last.index === i ? " last" : ""}`)));
    return el("section", {class: classes.join(" "), "data-seat": number, "data-pos": position}, head, hand,
              seat.melds.length ? melds : null, discards);
  }

  /** The end-of-game panel (see mjarena.web.outcome). */
  function outcome(panel, seatNames) {
    if (!panel) return null;
    const rows = panel.rows.map((row) => el("li", {"data-seat": row.seat},
      el("b", {}, `${row.rank}. ${seatNames[row.seat]}`), t(" (%(points)s pt): ", {points: row.points}), row.why));
    const score = panel.score ? el("p", {class: "score"},
      t("%(seat)s wins with %(form)s: %(total)s tai — ", {seat: seatNames[panel.wins[0].seat], form: panel.score.form,
                                                           total: panel.score.total}),
      panel.score.items.length
        ? panel.score.items.map((item) => t("%(name)s (%(tai)s tai)", {name: item.name, tai: item.tai})).join(", ")
        : t("no tai pattern (each needs one suit, or an edge 3 or 7)"),
      el("br"), el("span", {class: "muted"}, t("arranged as %(arrangement)s",
                                                {arrangement: panel.score.arrangement}))) : null;
    return el("section", {class: "outcome", id: "outcome"}, el("h2", {}, t("How the game ended")),
      el("p", {class: "ended"}, panel.ended), score,
      el("ol", {class: "why"}, rows),
      panel.notes.length ? el("ul", {class: "notes"}, panel.notes.map((note) => el("li", {}, note))) : null);
  }

  /** The per-seat transcript panel (see mjarena.web.transcripts): what each bot was asked and answered. */
  function transcripts(panels, seatNames) {
    if (!panels || !panels.length) return null;
    const body = el("div", {class: "transcript-body"});
    const tabs = el("div", {class: "tabs", role: "tablist"});
    function show(index) {
      const panel = panels[index];
      for (const button of tabs.children) button.setAttribute("aria-selected", button.dataset.index === String(index));
      const timing = panel.mean_ms === null ? ""
        : " · " + t("mean %(mean)s ms, max %(max)s ms", {mean: panel.mean_ms, max: panel.max_ms});
      const head = el("p", {class: "muted"}, `${panel.bot} · ${panel.rows.length} ` +
        (panel.kind === "exchanges" ? t("exchanges") : t("decisions (an in-process agent: no protocol text)"))
        + timing);
      const error = panel.error ? el("p", {class: "error"}, errorWords(panel.error)) : null;
      const verdict = (code) => code === "ok" ? t("ok") : code === "judge" ? t("judge")
        : panel.error && code === panel.error.reason ? panel.error.reason_text || code : code;
      // numbered by the move at which each was asked (the viewer's counter), when the replay says it
      const byMove = panel.rows.length > 0 && panel.rows.every((row) => Number.isInteger(row.move));
      const rows = panel.rows.map((row, i) => {
        const extra = [row.debug ? el("div", {class: "debug"}, el("b", {}, t("debug") + " "), row.debug) : null,
                       row.stderr ? el("div", {class: "stderr"}, el("b", {}, t("stderr") + " "), row.stderr) : null];
        return el("tr", {class: row.verdict === "ok" ? "" : "bad", "data-verdict": row.verdict},
          el("td", {class: "num"}, String(byMove ? row.move : i + 1)), el("td", {}, el("code", {}, row.stage_text ?? row.request ?? "")),
          el("td", {}, row.response === null ? el("i", {}, t("no answer")) : el("code", {}, row.response), ...extra),
          el("td", {class: "num"}, row.ms === null ? "" : String(row.ms)), el("td", {}, verdict(row.verdict)));
      });
      body.replaceChildren(head, error || "", el("div", {class: "scroll"}, el("table", {class: "list transcript"},
        el("thead", {}, el("tr", {}, [byMove ? t("move") : "#", panel.kind === "exchanges" ? t("request") : t("stage"),
                                      t("response"), "ms", t("verdict")].map((h) => el("th", {}, h)))),
        el("tbody", {}, rows))));
    }
    panels.forEach((panel, index) => tabs.append(el("button", {type: "button", role: "tab", "data-index": index,
      class: panel.error ? "erred" : "", onclick: () => show(index)}, seatNames[panel.seat])));
    show(panels.findIndex((panel) => panel.error) >= 0 ? panels.findIndex((panel) => panel.error) : 0);
    return el("section", {class: "transcripts", id: "transcripts"},
      el("h2", {}, t("Transcripts")), tabs, body);
  }

  /** The results of a finished game, best first. */
  function results(rows, seatNames) {
    const sorted = rows.slice().sort((a, b) => a.rank - b.rank || a.seat - b.seat);
    return el("table", {class: "list results"},
      el("thead", {}, el("tr", {}, [t("rank"), t("seat"), t("player"), t("status"), t("points")].map((h) => el("th", {}, h)))),
      el("tbody", {}, sorted.map((row) => el("tr", {},
        el("td", {}, String(row.rank)), el("td", {}, seatNames[row.seat]), el("td", {}, row.bot),
        el("td", {}, row.reason ? t("error: %(reason)s", {reason: row.reason_text || row.reason})
          : {won: t("won"), in: t("in")}[row.status] || row.status), el("td", {}, String(row.points))))));
  }

  return {el, t, tile, json, table, results, outcome, transcripts, errorWords};
})();
