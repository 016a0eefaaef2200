// Play: choose a rule set and opponents, then play your seat; the other hands stay hidden until the end.
"use strict";

(() => {
  const {el} = MJ;
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
      say(`Cannot start a game: ${error.message}`, "error");
      return;
    }
    rulesSelect.replaceChildren(...options.map((r) => el("option", {value: r.name}, `${r.title} (${r.name})`)));
    const seatNames = (rules) => (rules === "thupc2021" ? ["A", "B", "C", "D"] : ["East", "South", "West", "North"]);
    function fill() {
      const rules = options.find((r) => r.name === rulesSelect.value);
      const names = seatNames(rules.name);
      const seat = Number(seatSelect.value || 0);
      seatSelect.replaceChildren(...names.map((n, i) => el("option", {value: i, selected: i === seat}, n)));
      const preferred = rules.opponents.find((spec) => spec.endsWith(":greedy")) || rules.opponents[0];
      opponents.replaceChildren(...[0, 1, 2].map((i) => el("label", {}, `Bot ${i + 1} `,
        el("select", {name: "opponent", "aria-label": `opponent ${i + 1}`},
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
      say("Starting…");
      try {
        const started = await MJ.json("/api/play", body);
        location.assign(started.url);
      } catch (error) {
        say(`Cannot start the game: ${error.message}`, "error");
      }
    });
    document.body.dataset.ready = "start";
  }

  // -- a game ----------------------------------------------------------------------------------------

  async function game() {
    const id = app.dataset.session;
    const url = `/api/play/${encodeURIComponent(id)}`;
    const prompt = el("div", {class: "prompt", id: "prompt", "aria-live": "polite"});
    const buttons = el("div", {class: "choices", id: "choices"});
    const board = el("div", {id: "board"});
    const log = el("ol", {class: "log short", id: "log"});
    const end = el("div", {id: "end"});
    const facts = el("p", {class: "muted", id: "facts"});
    app.append(facts, prompt, buttons, board, end, el("h2", {}, "Recent moves"), log);
    let view = null;
    let picking = null; // the choices of a group button waiting for a tile click
    let busy = false;

    async function send(choice) {
      if (busy) return;
      busy = true;
      picking = null;
      say("The bots are playing…");
      try {
        show(await MJ.json(url, {version: view.version, choice: choice.index}));
        while (view.state === "running") show(await MJ.json(`${url}?wait=5`));
      } catch (error) {
        say(error.message, "error");
        if (error.status === 409) show(await MJ.json(`${url}?wait=1`).catch(() => view));
      } finally {
        busy = false;
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
        el("button", {class: "choice cancel", onclick: () => { picking = null; render(); }}, "Cancel"));
    }

    function onGroup(group) {
      const members = view.choices.filter((c) => c.group === group);
      if (members.length === 1 && members[0].tile === null) return send(members[0]);
      if (members.every((c) => c.tile === null)) return menu(members);
      picking = members;
      render();
      prompt.textContent = `${group}: now click the tile to discard`;
    }

    function render() {
      const mine = view.seat;
      facts.textContent = `${view.rules} · seed ${view.seed} · you are ${view.seat_names[mine]}`;
      const waiting = view.state === "waiting";
      if (view.state === "finished") {
        prompt.textContent = view.message || "Game over";
      } else if (view.state === "failed") {
        prompt.textContent = view.message;
        prompt.className = "prompt error";
      } else if (!waiting) {
        prompt.textContent = "The bots are playing…";
      } else if (view.stage === "target") {
        prompt.textContent = "The wall is empty: declare your target hand";
      } else {
        const discard = view.choices.some((c) => c.group === null);
        prompt.textContent = discard ? "Your turn: click a tile to discard" + (view.choices.some((c) => c.group)
          ? ", or choose an action" : "") : "A tile was discarded: claim it or pass";
      }
      const groups = [...new Set(view.choices.filter((c) => c.group !== null).map((c) => c.group))];
      const cancel = el("button", {class: "choice cancel", onclick: () => { picking = null; render(); }}, "Cancel");
      buttons.replaceChildren(...(picking ? [cancel] : waiting ? groups.map((g) => el("button", {class: "choice",
        "data-group": g, onclick: () => onGroup(g)}, g)) : []));
      const clickable = (kind) => waiting && tileChoices(kind).length > 0;
      const finished = view.state === "finished";
      board.replaceChildren(MJ.table(view.table, {seatNames: view.seat_names, names: view.tile_names,
        bots: view.bots, you: mine, clickable, onTile, result: finished ? view.result : null}));
      log.replaceChildren(...view.log.map((line) => el("li", {}, line)));
      if (finished) {
        end.replaceChildren(MJ.results(view.result, view.seat_names),
          view.replay ? el("p", {}, el("a", {id: "replay-link", href: `/replays/${view.replay}`}, "Watch the replay"),
                           " · ", el("a", {href: "/play"}, "Play again")) : el("p", {}, view.message));
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
    } catch (error) {
      say(`This game cannot be shown: ${error.message}`, "error");
    }
  }

  if (app.dataset.mode === "start") start(); else game();
})();
