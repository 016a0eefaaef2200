// The replay viewer: every step of a game, face up; keyboard ←/→ step, space play/pause, Home/End, +/- speed;
// each discard's effect on the hand (distance, useful tiles, the best discard: a checkbox or ?effects=off hides
// them); each seat's distance to a win as a chart (a click on a move goes there); the end of the game explained and
// each bot's transcript below.  A contest's game in progress (data-live: where its moves so far are asked for) is
// shown the same way, asked for again every few seconds, and becomes its replay (data-done) when it ends.
"use strict";

(async () => {
  const {el, t} = MJ;
  const app = document.getElementById("app");
  const status = document.getElementById("status");
  const name = app.dataset.replay;
  const liveUrl = app.dataset.live;
  const embedded = document.getElementById("mj-data"); // a replay exported as one HTML file carries its data
  const LIVE_MS = 3000;
  let view;
  try {
    view = embedded ? JSON.parse(embedded.textContent)
      : await MJ.json(liveUrl || `/api/replays/${name.split("/").map(encodeURIComponent).join("/")}`);
  } catch (error) {
    status.textContent = t("This replay cannot be shown: %(error)s", {error: error.message});
    status.className = "error";
    if (liveUrl) setTimeout(() => location.reload(), LIVE_MS * 2);
    return;
  }
  if (view.finished) { location.replace(app.dataset.done); return; }
  const kept = new Set(app.children); // what the page brought (its title), kept when a live game is shown anew
  let shown = view.steps ? mount(view) : null;
  if (shown) status.remove();
  else waiting();
  document.addEventListener("keydown", (event) => { if (shown) shown.key(event); });
  if (liveUrl) follow();
  if (!liveUrl || !view.steps) document.body.dataset.ready = "replay";

  function waiting() {
    // A live game with no move written yet.
    status.className = "muted live";
    status.textContent = t("Waiting for the game's first move…");
  }

  async function follow() {
    // Ask for the game's moves again every few seconds; show them anew when there are more (at the last move when
    // the reader was there, else where they were); go to the replay when the game has ended.
    for (;;) {
      await new Promise((done) => setTimeout(done, LIVE_MS));
      let answer;
      try {
        answer = await MJ.json(liveUrl);
      } catch (error) { // too many asked for, the server restarting: said, and asked for again
        const note = document.getElementById("live");
        if (note) note.textContent = t("The moves cannot be brought up to date now: %(error)s", {error: error.message});
        continue;
      }
      if (answer.finished) {
        location.replace(app.dataset.done + (shown ? `#${shown.step()}` : ""));
        return;
      }
      if (!answer.steps) continue;
      if (shown && answer.steps.length === view.steps.length) {
        shown.note();
        continue;
      }
      const at = shown && shown.step() !== shown.last ? shown.step() : null;
      if (shown) shown.stop();
      for (const node of [...app.children]) if (!kept.has(node)) node.remove();
      if (status.isConnected) status.remove();
      view = answer;
      shown = mount(view, at);
    }
  }

  // The viewer on `view`, opened at step `at` (undefined: as a replay opens; null: at its last move); what it gives
  // back lets a live game be shown anew.  (Its body keeps the script's own indentation.)
  function mount(view, at = undefined) {
  const steps = view.steps;
  const last = steps.length - 1;
  const speeds = [0.25, 0.5, 1, 2, 4, 8];
  let step = 0;
  let speed = 2;
  let timer = null;

  const counter = el("span", {class: "counter", id: "counter", "aria-live": "polite"});
  const slider = el("input", {type: "range", min: 0, max: last, value: 0, id: "slider", "aria-label": t("move")});
  // How the game ended stays hidden until the last move (no spoiler while stepping through), unless asked for.
  const showEnding = el("input", {type: "checkbox", id: "show-ending", onchange: () => render()});
  const endingToggle = el("label", {class: "toggle", title: t("show the result before the last move")},
    showEnding, " " + t("ending"));
  const playButton = el("button", {id: "play", title: t("play / pause (space)")});
  const speedSelect = el("select", {id: "speed", "aria-label": t("speed"), title: t("speed (+ / -)")},
    speeds.map((s, i) => el("option", {value: i, selected: i === speed}, `${s}×`)));
  const controls = el("div", {class: "controls"},
    el("button", {id: "first", title: t("first (Home)"), onclick: () => go(0)}, "|◀"),
    el("button", {id: "prev", title: t("back (←)"), onclick: () => go(step - 1)}, "◀"),
    playButton,
    el("button", {id: "next", title: t("forward (→)"), onclick: () => go(step + 1)}, "▶"),
    el("button", {id: "last", title: t("last (End)"), onclick: () => go(last)}, "▶|"),
    speedSelect, effectToggle(), view.live ? null : endingToggle, counter); // a game in progress has no ending yet
  const action = el("div", {class: "action", id: "action"});
  const effectBox = el("div", {class: "effect", id: "effect", "aria-live": "polite"});
  const banner = el("div", {class: "banner", id: "banner", hidden: true});
  const board = el("div", {id: "board"});
  const log = el("ol", {class: "log", id: "log", start: 0},
    steps.map((item, i) => el("li", {"data-step": i, class: item.errors ? "erred" : "", onclick: () => go(i)},
                              item.text, item.effect && !item.effect.best
                                ? el("span", {class: "badge loss", title: item.effect.verdict}, t("not best")) : null)));
  const title = app.querySelector("h1");
  const facts = el("p", {class: "muted"}, `${view.rules} · ` + t("seed %(seed)s", {seed: view.seed ?? "—"}) +
    (view.tournament ? " · " + t("tournament game %(game)s", {game: view.tournament.game}) : ""));
  const errors = view.errors.length ? el("ul", {class: "errors"}, view.errors.map((mark) => el("li", {},
    el("b", {}, view.seat_names[mark.seat]), ` ${MJ.errorWords(mark)} `,
    mark.step === null ? null : el("a", {href: "#", onclick: (event) => { event.preventDefault(); go(mark.step); }},
                                   t("(move %(move)s)", {move: mark.step}))))) : null;
  // a game in progress has no result yet: no result box, no ending, the table's last move is not the end
  const results = view.live ? null : el("details", {class: "resultbox"}, el("summary", {}, t("Result")),
    MJ.results(view.seats, view.seat_names));
  const ending = MJ.outcome(view.outcome, view.seat_names);
  const chart = distanceChart(view.distance_chart);
  const liveNote = view.live ? el("p", {class: "notice live", id: "live", "aria-live": "polite"}) : null;
  const note = () => {
    if (!liveNote) return;
    liveNote.textContent = t("Live: %(moves)s moves so far, updated every few seconds; the replay shows at the end.",
                             {moves: last});
  };
  note();
  title.after(facts);
  app.append(liveNote || "", errors || "", controls, slider, action, effectBox, banner, board, chart ? chart.box : "",
             el("div", {class: "below"}, ending || "", results || "", el("h2", {}, t("Moves")), log,
                MJ.transcripts(view.transcripts, view.seat_names) || ""));

  const speedMs = () => 700 / speeds[speed];
  // A tournament's game names its entrants: "greedy-1 (builtin:greedy)".
  const entrants = view.tournament && Array.isArray(view.tournament.bots) ? view.tournament.bots : null;
  const seatLabels = view.seats.map((s, i) => (entrants && entrants[i] ? `${entrants[i]} (${s.bot})` : s.bot));

  function effectToggle() {
    // Discard annotations: on unless ?effects=off or the reader turned them off (remembered in the browser).
    const KEY = "mjarena.effects";
    let stored = null;
    try { stored = localStorage.getItem(KEY); } catch (error) { stored = null; } // a file:// page may have none
    const box = el("input", {type: "checkbox", id: "effects"});
    box.checked = new URLSearchParams(location.search).get("effects") !== "off" && stored !== "off";
    const apply = () => app.classList.toggle("no-effects", !box.checked);
    box.addEventListener("change", () => {
      try { localStorage.setItem(KEY, box.checked ? "on" : "off"); } catch (error) { /* not kept */ }
      apply();
    });
    apply();
    return el("label", {class: "toggle", title: t("each discard's effect on distance and useful tiles")}, box,
              " " + t("discard analysis"));
  }

  function effectLine(snap) {
    // What the discard of this step did to the discarder's hand (mjarena.web.effects); nothing for other steps.
    const effect = snap.effect;
    if (!effect) return [];
    const kinds = effect.useful_tiles;
    const useful = kinds.length > 12 ? ` (${t("%(count)s useful kinds", {count: kinds.length})})` : kinds.length
      ? ` (${t("useful: %(tiles)s", {tiles: kinds.map((kind) => view.tile_names[kind] || String(kind)).join(" ")})})`
      : "";
    return [el("b", {}, t("%(seat)s's discard", {seat: view.seat_names[effect.seat]})), " ",
      el("span", {class: `badge ${effect.best ? "good" : "loss"}`}, effect.best ? t("best discard") : effect.verdict),
      " ", effect.text, useful ? el("span", {class: "muted"}, useful) : null];
  }

  function distanceChart(drawn) {
    // Each seat's distance to a win, drawn on the server (mjarena.web.distances with mjarena.charts); here the
    // current move's marker moves and a click on a move goes there.  Until the ending is shown, nothing after
    // the current move is drawn: the lines are clipped there, later points, wins, errors and table rows hidden.
    if (!drawn || !drawn.svg) return null;
    const NS = "http://www.w3.org/2000/svg";
    const figure = el("div", {class: "chart-box"});
    figure.innerHTML = drawn.svg; // mjarena.charts escapes every value it writes
    const svg = figure.querySelector("svg");
    const data = el("details", {class: "chart-data"}, el("summary", {}, t("The distances as a table")));
    data.insertAdjacentHTML("beforeend", drawn.table);
    const box = el("section", {class: "distance", id: "distance", "aria-label": t("distance to a win")}, figure, data);
    const [x0, x1, left, right] = ["x0", "x1", "left", "right"].map((key) => Number(svg.dataset[key]));
    const px = (x) => left + (Math.max(x0, Math.min(x1, x)) - x0) / ((x1 - x0) || 1) * (right - left);
    const {width, height} = svg.viewBox.baseVal;
    const clip = document.createElementNS(NS, "clipPath");
    clip.id = `${svg.id}-so-far`;
    const shown = document.createElementNS(NS, "rect");
    for (const [key, value] of Object.entries({x: 0, y: 0, width, height})) shown.setAttribute(key, value);
    clip.append(shown);
    const defs = document.createElementNS(NS, "defs");
    defs.append(clip);
    svg.prepend(defs);
    for (const line of svg.querySelectorAll(".chart-line")) line.setAttribute("clip-path", `url(#${clip.id})`);
    const marker = svg.querySelector(".chart-x-marker");
    const later = [...svg.querySelectorAll(".chart-series [data-x]")]; // point markers, wins and errors
    const rows = [...data.querySelectorAll("tbody tr")]
      .map((row) => [row, Number(row.querySelector("th").textContent)]);
    const desc = svg.querySelector("desc");
    const names = [...svg.querySelectorAll(".chart-series")].map((group) => group.dataset.series);
    svg.addEventListener("click", (event) => {
      const hit = event.target.closest("[data-x]");
      if (hit && svg.contains(hit)) go(Number(hit.dataset.x));
    });

    function show(index, reveal) {
      const x = px(index);
      if (marker) {
        marker.setAttribute("x1", x.toFixed(1));
        marker.setAttribute("x2", x.toFixed(1));
        marker.dataset.x = index;
      }
      shown.setAttribute("width", reveal ? width : Math.max(0, x + 0.5));
      for (const item of later) {
        if (!reveal && Number(item.dataset.x) > index) item.setAttribute("display", "none");
        else item.removeAttribute("display");
      }
      for (const [row, at] of rows) row.hidden = !reveal && at > index;
      if (desc) {
        const now = names.map((name, seat) => `${name} ${view.distances[seat][index] ?? t("none")}`);
        desc.textContent = t("Distance to a win after move %(move)s: %(distances)s.", {move: index,
                                                                                      distances: now.join(", ")});
      }
    }

    return {box, show};
  }

  function marksAt(index) {
    // A seat is played by the judge from the step its error happened on.
    const marks = {};
    for (const mark of view.errors) {
      if (mark.step !== null && mark.step <= index) marks[mark.seat] = MJ.errorWords(mark);
    }
    return marks;
  }

  function render() {
    const snap = steps[step];
    counter.textContent = `${step} / ${last}`;
    slider.value = step;
    action.textContent = snap.text;
    effectBox.replaceChildren(...effectLine(snap));
    playButton.textContent = timer ? t("Pause") : t("Play");
    const here = snap.errors || [];
    banner.hidden = here.length === 0;
    banner.replaceChildren(...here.map((mark) => el("div", {},
      el("b", {}, `${view.seat_names[mark.seat]}: ${mark.reason_text || mark.reason}`),
      t(" — %(detail)s. ", {detail: mark.detail_text || mark.detail || ""}),
      mark.reason === "false_hu" ? t("The seat leaves the game.") : t("From here the judge plays for this seat."))));
    board.replaceChildren(MJ.table(snap, {seatNames: view.seat_names, names: view.tile_names,
      bots: seatLabels, marks: marksAt(step), result: step === last && !view.live ? view.seats : null,
      winning: step === last && view.outcome ? view.outcome.wins : []}));
    if (ending) ending.classList.toggle("now", step === last);
    const reveal = step === last || showEnding.checked;
    if (chart) chart.show(step, reveal);
    if (ending) ending.hidden = !reveal;
    if (results) results.hidden = !reveal;
    for (const item of log.querySelectorAll("li.current")) item.classList.remove("current");
    const current = log.children[step];
    current.classList.add("current");
    const box = log.getBoundingClientRect();
    const line = current.getBoundingClientRect();
    if (line.top < box.top || line.bottom > box.bottom) log.scrollTop += line.top - box.top - box.height / 2;
  }

  function go(index) {
    step = Math.max(0, Math.min(last, index));
    if (step === last) stop();
    render();
  }

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  function toggle() {
    if (timer) {
      stop();
    } else {
      if (step === last) step = 0;
      timer = setInterval(() => go(step + 1), speedMs());
    }
    render();
  }

  function setSpeed(index) {
    speed = Math.max(0, Math.min(speeds.length - 1, index));
    speedSelect.value = speed;
    if (timer) { stop(); timer = setInterval(() => go(step + 1), speedMs()); }
  }

  playButton.addEventListener("click", toggle);
  slider.addEventListener("input", () => go(Number(slider.value)));
  speedSelect.addEventListener("change", () => setSpeed(Number(speedSelect.value)));
  function key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const keys = {ArrowRight: () => go(step + 1), ArrowLeft: () => go(step - 1), " ": toggle,
                  Home: () => go(0), End: () => go(last), "+": () => setSpeed(speed + 1),
                  "=": () => setSpeed(speed + 1), "-": () => setSpeed(speed - 1)};
    const handler = keys[event.key];
    if (!handler || event.target === speedSelect) return;
    event.preventDefault();
    handler();
  }
  // Open at the game's first move (view.opening: mjarena.web.timeline; step 0 is the empty table before the deal),
  // on the step in the address, or, for "#error" (a link from an error), on the first error's move; a live game
  // at its last move so far (where its reader was, when it is shown anew).
  const fromHash = location.hash === "#error" ? (view.first_error ?? NaN)
    : location.hash.length > 1 ? Number(location.hash.slice(1)) : NaN;
  go(at !== undefined ? (at ?? last) : view.live ? last : Number.isInteger(fromHash) ? fromHash : view.opening);
  document.body.dataset.ready = "replay";
  return {key, stop, note, last, step: () => step};
  }
})();
