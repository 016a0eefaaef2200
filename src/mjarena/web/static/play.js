// Play: choose a rule set and opponents, then play your seat; the other hands stay hidden until the end.
"use strict";

(() => {
  const {el, t} = MJ;
  const app = document.getElementById("app");
  const status = document.getElementById("status");

  function say(text, kind = "muted") {
    status.textContent = text;
    status.className = kind;
  }

  // -- the start form --------------------------------------------------------------------------------

  async function start() {
    const form = document.getElementById("start");
    const rulesSelect = document.getElementById("rules");
    const seatSelect = document.getElementById("seat");
    const opponents = document.getElementById("opponents");
    let options;
    try {
      options = (await MJ.json("/api/play")).rules;
    } catch (error) {
      say(t("Cannot start a game: %(error)s", {error: error.message}), "error");
      return;
    }
    rulesSelect.replaceChildren(...options.map((r) => el("option", {value: r.name}, `${r.title} (${r.name})`)));
    const seatNames = (rules) => rules.seat_names;  // in the page's language (the server's words)
    function fill() {
      const rules = options.find((r) => r.name === rulesSelect.value);
      const names = seatNames(rules);
      const seat = Number(seatSelect.value || 0);
      seatSelect.replaceChildren(...names.map((n, i) => el("option", {value: i, selected: i === seat}, n)));
      const preferred = rules.opponents.find((spec) => spec.endsWith(":greedy")) || rules.opponents[0];
      opponents.replaceChildren(...[0, 1, 2].map((i) => el("label", {}, t("Bot %(number)s", {number: i + 1}), " ",
        el("select", {name: "opponent", "aria-label": t("opponent %(number)s", {number: i + 1})},
          rules.opponents.map((spec) => el("option", {value: spec, selected: spec === preferred}, spec))))));
    }
    rulesSelect.addEventListener("change", fill);
    fill();
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = {rules: rulesSelect.value, seat: Number(seatSelect.value),
                    opponents: [...form.querySelectorAll("select[name=opponent]")].map((s) => s.value)};
      const seed = new URLSearchParams(location.search).get("seed");
      if (seed !== null && /^\d+$/.test(seed)) body.seed = Number(seed);
      say(t("Starting…"));
      try {
        const started = await MJ.json("/api/play", body);
        location.assign(started.url);
      } catch (error) {
        say(t("Cannot start the game: %(error)s", {error: error.message}), "error");
      }
    });
    document.body.dataset.ready = "start";
  }

  // -- a game ----------------------------------------------------------------------------------------
  // Keys: 1-9 and 0 pick the 1st-10th tile of your hand, ←/→ move along it, Enter discards the picked tile;
  // p PENG/PONG, g GANG, c CHI/CHOW, h HU/RON/self-drawn, space (or n) Pass, Esc cancels.

  const KEYS = {p: ["PENG", "PONG"], g: ["GANG"], c: ["CHI", "CHOW"], h: ["HU", "RON", "SELF-DRAWN"],
                " ": ["Pass"], n: ["Pass"]};
  const AUTO_PASS = "mjarena.autopass";

  async function game() {
    const id = app.dataset.session;
    const url = `/api/play/${encodeURIComponent(id)}`;
    const prompt = el("div", {class: "prompt", id: "prompt", "aria-live": "polite"});
    const buttons = el("div", {class: "choices", id: "choices"});
    const autoPass = el("input", {type: "checkbox", id: "autopass"});
    autoPass.checked = localStorage.getItem(AUTO_PASS) !== "off";
    autoPass.addEventListener("change", () => {
      localStorage.setItem(AUTO_PASS, autoPass.checked ? "on" : "off");
      if (autoPass.checked && view) maybeAutoPass();
    });
    const passed = el("span", {class: "muted", id: "autopassed"});
    const settings = el("div", {class: "settings"},
      el("label", {class: "toggle"}, autoPass, " ", t("Pass automatically when Pass is the only choice")), passed,
      el("details", {class: "keys"}, el("summary", {}, t("Keys")),
        el("p", {}, t("1–9, 0: pick a tile · ←/→: move · Enter: discard it · p: PENG · g: GANG · c: CHI · h: HU · space: Pass · Esc: cancel. The number under a tile is the distance (tiles still needed to win) after discarding it; the best is green."))));
    const dock = el("div", {class: "dock", id: "dock"}, prompt, buttons);
    const board = el("div", {id: "board"});
    const log = el("ol", {class: "log short", id: "log"});
    const end = el("div", {id: "end"});
    const facts = el("p", {class: "muted", id: "facts"});
    app.append(facts, board, dock, settings, end, el("h2", {}, t("Recent moves")), log);
    let view = null;
    let picking = null; // the choices of a group button waiting for a tile click
    let busy = false;
    let selected = null; // index of the picked tile in your hand (keyboard)
    let autoPassed = 0;

    async function send(choice) {
      if (busy) return;
      busy = true;
      picking = null;
      selected = null;
      say(t("The bots are playing…"));
      try {
        show(await MJ.json(url, {version: view.version, choice: choice.index}));
        while (view.state === "running") show(await MJ.json(`${url}?wait=5`));
      } catch (error) {
        say(error.message, "error");
        if (error.status === 409) show(await MJ.json(`${url}?wait=1`).catch(() => view));
      } finally {
        busy = false;
      }
      maybeAutoPass();
    }

    function onlyPass() {
      return view && view.state === "waiting" && view.choices.length === 1 && view.choices[0].type === "pass";
    }

    function maybeAutoPass() {
      if (!busy && autoPass.checked && onlyPass()) {
        autoPassed += 1;
        passed.textContent = " · " + t("passed for you %(count)s×", {count: autoPassed});
        send(view.choices[0]);
      }
    }

    function tileChoices(kind) {
      const pool = picking || view.choices.filter((c) => c.group === null);
      return pool.filter((c) => c.tile === kind);
    }

    function onTile(kind) {
      const found = tileChoices(kind);
      if (found.length === 1) send(found[0]);
      else if (found.length > 1) menu(found);
    }

    function menu(choices) {
      buttons.replaceChildren(...choices.map((c) => el("button", {class: "choice", onclick: () => send(c)},
                                                       c.label)),
        el("button", {class: "choice cancel", onclick: () => { picking = null; render(); }}, t("Cancel")));
    }

    function onGroup(group) {
      const members = view.choices.filter((c) => c.group === group);
      if (members.length === 1 && members[0].tile === null) return send(members[0]);
      if (members.every((c) => c.tile === null)) return menu(members);
      picking = members;
      render();
      prompt.textContent = t("%(group)s: now pick the tile to discard", {group: members[0].group_text || group});
    }

    function handKinds() {
      const mine = view.table.seats[view.seat];
      if (!mine.hand) return [];
      return mine.drawn === null || mine.drawn === undefined ? mine.hand.slice() : [...mine.hand, mine.drawn];
    }

    function onKey(event) {
      if (event.ctrlKey || event.metaKey || event.altKey || !view || view.state !== "waiting" || busy) return;
      if (["INPUT", "SELECT", "TEXTAREA"].includes(event.target.tagName) && event.key !== "Escape") return;
      const kinds = handKinds();
      const pickable = kinds.map((kind, i) => (tileChoices(kind).length ? i : -1)).filter((i) => i >= 0);
      let handled = true;
      if (/^[0-9]$/.test(event.key)) {
        const index = event.key === "0" ? 9 : Number(event.key) - 1;
        if (pickable.includes(index)) selected = index;
      } else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
        if (!pickable.length) return;
        const at = pickable.indexOf(selected);
        const step = event.key === "ArrowRight" ? 1 : -1;
        selected = pickable[at < 0 ? (step > 0 ? 0 : pickable.length - 1)
          : (at + step + pickable.length) % pickable.length];
      } else if (event.key === "Enter" && selected !== null && event.target.tagName !== "BUTTON") {
        onTile(kinds[selected]);
        return event.preventDefault();
      } else if (event.key === "Escape") {
        picking = null;
        selected = null;
      } else if (KEYS[event.key]) {
        const groups = [...new Set(view.choices.filter((c) => c.group !== null).map((c) => c.group))];
        const group = groups.find((g) => KEYS[event.key].some((word) => g === word || g.startsWith(`${word} `)));
        if (!group) return;
        event.preventDefault();
        return onGroup(group);
      } else {
        handled = false;
      }
      if (handled) {
        event.preventDefault();
        render();
      }
    }
    document.addEventListener("keydown", onKey);

    function render() {
      const mine = view.seat;
      facts.textContent = `${view.rules} · ` + t("you are %(seat)s", {seat: view.seat_names[mine]}) +
        (view.seed === undefined ? "" : " · " + t("seed %(seed)s", {seed: view.seed}));
      const waiting = view.state === "waiting";
      if (view.state === "finished") {
        prompt.textContent = view.message || t("Game over");
      } else if (view.state === "failed" || view.state === "ended") {  // ended: closed, or no move for long
        prompt.textContent = view.message;
        prompt.className = "prompt error";
      } else if (!waiting) {
        prompt.textContent = t("The bots are playing…");
      } else if (view.stage === "target") {
        prompt.textContent = t("The wall is empty: declare your target hand");
      } else {
        const discard = view.choices.some((c) => c.group === null);
        prompt.textContent = discard ? (view.choices.some((c) => c.group)
          ? t("Your turn: pick a tile to discard, or choose an action") : t("Your turn: pick a tile to discard"))
          : t("A tile was discarded: claim it or pass");
      }
      const groups = [...new Set(view.choices.filter((c) => c.group !== null).map((c) => c.group))];
      const cancel = el("button", {class: "choice cancel", onclick: () => { picking = null; render(); }}, t("Cancel"));
      const keyOf = (group) => Object.keys(KEYS).find((key) => key !== "n" &&
        KEYS[key].some((word) => group === word || group.startsWith(`${word} `)));
      const groupText = (g) => (view.choices.find((c) => c.group === g) || {}).group_text || g;
      buttons.replaceChildren(...(picking ? [cancel] : waiting ? groups.map((g) => el("button", {class: "choice",
        "data-group": g, onclick: () => onGroup(g)}, groupText(g),
        keyOf(g) ? el("kbd", {}, keyOf(g) === " " ? t("space") : keyOf(g)) : null)) : []));
      const discard = selected !== null && waiting && !picking ? handKinds()[selected] : undefined;
      if (discard !== undefined) {
        buttons.append(el("button", {class: "choice go", id: "discard-picked", onclick: () => onTile(discard)},
          t("Discard %(tile)s", {tile: view.tile_names[discard] || discard}), el("kbd", {}, "Enter")));
      }
      const clickable = (kind) => waiting && tileChoices(kind).length > 0;
      const hints = {};
      if (waiting && !picking) {
        for (const c of view.choices) if (c.group === null && c.distance !== undefined) hints[c.tile] = c.distance;
      }
      const finished = view.state === "finished";
      board.replaceChildren(MJ.table(view.table, {seatNames: view.seat_names, names: view.tile_names,
        bots: view.bots, you: mine, clickable, onTile, hints: Object.keys(hints).length ? hints : null, selected,
        result: finished ? view.result : null, winning: finished && view.outcome ? view.outcome.wins : []}));
      log.replaceChildren(...view.log.map((line) => el("li", {}, line)));
      if (finished) {
        end.replaceChildren(MJ.outcome(view.outcome, view.seat_names) || "", MJ.results(view.result, view.seat_names),
          view.replay ? el("p", {}, el("a", {id: "replay-link", href: `/replays/${view.replay}`},
                                       t("Watch the replay, with every bot's transcript")),
                           " · ", el("a", {href: "/play"}, t("Play again"))) : el("p", {}, view.message));
      }
      document.body.dataset.state = view.state;
      document.body.dataset.version = view.version;
    }

    function show(next) {
      view = next;
      if (!busy || view.state !== "running") say("");
      render();
    }

    try {
      show(await MJ.json(`${url}?wait=5`));
      while (view.state === "running") show(await MJ.json(`${url}?wait=5`));
      maybeAutoPass();
    } catch (error) {
      say(t("This game cannot be shown: %(error)s", {error: error.message}), "error");
    }
  }

  if (app.dataset.mode === "start") start(); else game();
})();
