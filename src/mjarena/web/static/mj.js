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

  /** One tile picture: kind -1 is a hidden tile. */
  function tile(kind, names = {}, extra = "") {
    const name = kind < 0 ? "hidden" : (names[kind] || String(kind));
    return el("img", {class: `tile ${extra}`.trim(), src: `/tiles/${kind < 0 ? "back" : kind}.svg`,
                      alt: name, title: name, "data-kind": kind, draggable: "false"});
  }

  /** GET or POST JSON; throws an Error whose message is the server's. */
  async function json(url, body) {
    const options = body === undefined ? {headers: {accept: "application/json"}}
      : {method: "POST", headers: {"content-type": "application/json", accept: "application/json"},
         body: JSON.stringify(body)};
    let response;
    try {
      response = await fetch(url, options);
    } catch (error) {
      throw new Error(`the server cannot be reached (${error.message})`);
    }
    let data = null;
    try { data = await response.json(); } catch (error) { data = null; }
    if (!response.ok) {
      const problem = new Error((data && data.error) || `${response.status} ${response.statusText}`);
      problem.status = response.status;
      throw problem;
    }
    return data;
  }

  const MELD_NAMES = {peng: "PENG", pong: "PONG", gang: "GANG", chi: "CHI", chow: "CHOW"};

  /**
   * Draw the table: `snap` is a timeline snapshot, `info` = {seatNames, names, bots, you, clickable(kind),
   * onTile(kind), marks: {seat: text}, result}.
   */
  function table(snap, info) {
    const order = info.you === null || info.you === undefined ? [0, 1, 2, 3]
      : [1, 2, 3, 0].map((step) => (info.you + step) % 4);
    const seats = order.map((number) => seatPanel(number, snap, info));
    const dice = snap.dice ? ` · dice ${snap.dice.join("+")}` : "";
    const turn = snap.turn === null || snap.turn === undefined ? "—" : info.seatNames[snap.turn];
    const bar = el("div", {class: "tablebar"},
      el("span", {class: "pill", id: "wall"}, `wall ${snap.wall}`),
      el("span", {class: "pill", id: "turn"}, `turn ${turn}`),
      dice ? el("span", {class: "pill"}, dice.slice(3)) : null,
      snap.tai ? el("span", {class: "pill"}, `${info.seatNames[snap.tai.seat]} scores ${snap.tai.total} 台`) : null);
    return el("div", {class: `table${info.you === undefined || info.you === null ? "" : " playing"}`}, bar,
              el("div", {class: "seats"}, seats));
  }

  function seatPanel(number, snap, info) {
    const seat = snap.seats[number];
    const names = info.names;
    const classes = ["seat"];
    if (snap.turn === number) classes.push("turn");
    if (seat.status !== "in") classes.push(seat.status);
    if (info.you === number) classes.push("you");
    if (info.marks && info.marks[number]) classes.push("erred");
    const badge = seat.status === "won" ? el("span", {class: "badge won"}, "won")
      : seat.status === "out" ? el("span", {class: "badge err"}, "out") : null;
    const error = info.marks && info.marks[number] ? el("span", {class: "badge err", title: info.marks[number]},
                                                        "judge plays") : null;
    const head = el("div", {class: "seathead"},
      el("b", {}, info.seatNames[number]), " ",
      el("span", {class: "bot"}, info.you === number ? "you" : (info.bots ? info.bots[number] : "")), " ",
      badge, error,
      info.result ? el("span", {class: "badge"}, `rank ${info.result[number].rank} · ${info.result[number].points} pt`)
        : null);
    const hand = el("div", {class: "hand", "aria-label": `${info.seatNames[number]} hand`});
    if (seat.hand === null) {
      for (let i = 0; i < seat.hidden; i += 1) hand.append(tile(-1, names, "small"));
    } else {
      const kinds = seat.hand.slice();
      const add = (kind, drawn) => {
        const picture = tile(kind, names, drawn ? "drawn" : "");
        if (info.you === number && info.clickable && info.clickable(kind)) {
          picture.classList.add("clickable");
          picture.tabIndex = 0;
          picture.setAttribute("role", "button");
          picture.addEventListener("click", () => info.onTile(kind));
          picture.addEventListener("keydown", (event) => {
            if (event.key === "Enter") info.onTile(kind);
          });
        }
        hand.append(picture);
      };
      kinds.forEach((kind) => add(kind, false));
      if (seat.drawn !== null && seat.drawn !== undefined) add(seat.drawn, true);
    }
    const melds = el("div", {class: "melds"}, seat.melds.map((meld) => el("span", {
      class: "meld", title: `${MELD_NAMES[meld.type] || meld.type}${meld.concealed ? " (concealed)" : ""}` +
        (meld.from !== null && meld.from !== undefined ? ` from ${info.seatNames[meld.from]}` : "")},
      meld.tiles.map((kind, i) => tile(meld.concealed && (i === 0 || i === 3) ? -1 : kind, names, "small")))));
    const last = snap.last_discard;
    const discards = el("div", {class: "discards", "aria-label": `${info.seatNames[number]} discards`},
      seat.discards.map((item, i) => tile(item.tile, names,
        `small${item.claimed ? " claimed" : ""}${last && last.seat === number && last.index === i ? " last" : ""}`)));
    return el("section", {class: classes.join(" "), "data-seat": number}, head, hand,
              seat.melds.length ? melds : null, discards);
  }

  /** The results of a finished game, best first. */
  function results(rows, seatNames) {
    const sorted = rows.slice().sort((a, b) => a.rank - b.rank || a.seat - b.seat);
    return el("table", {class: "list results"},
      el("thead", {}, el("tr", {}, ["rank", "seat", "player", "status", "points"].map((h) => el("th", {}, h)))),
      el("tbody", {}, sorted.map((row) => el("tr", {},
        el("td", {}, String(row.rank)), el("td", {}, seatNames[row.seat]), el("td", {}, row.bot),
        el("td", {}, row.reason ? `error: ${row.reason}` : row.status), el("td", {}, String(row.points))))));
  }

  return {el, tile, json, table, results};
})();
