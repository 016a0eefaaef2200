// A tournament: progress with ETA, standings (rating ± σ, answer times, errors by reason), head-to-head,
// each entrant's rating over the rounds (an SVG the server draws, with its table), and its games with filters
// by entrant and round; fetched again every 1.5 s until every game is played.
"use strict";

(() => {
  const {el, t} = MJ;
  const app = document.getElementById("app");
  const status = document.getElementById("status");
  const name = app.dataset.tournament;
  const url = `/api/tournaments/${name.split("/").map(encodeURIComponent).join("/")}`;
  const summary = el("p", {id: "summary", "aria-live": "polite"});
  const progress = el("progress", {id: "progress", max: 1, value: 0});
  const standings = el("div", {id: "standings", class: "scroll-x"});
  const versus = el("div", {id: "versus", class: "scroll-x"});
  const entrantFilter = el("select", {id: "filter-entrant", "aria-label": t("entrant")});
  const roundFilter = el("select", {id: "filter-round", "aria-label": t("round")});
  const games = el("div", {id: "games"});
  const chart = el("div", {id: "rating-chart", class: "chart-box"});
  const chartTable = el("div", {id: "rating-chart-table", class: "scroll-x"});
  const toggled = new Set();  // entrants whose line the reader showed or hid (kept across refreshes)
  let shownSvg = null;
  app.append(summary, progress, el("h2", {}, t("Standings")), standings,
             el("h2", {}, t("Ratings over the rounds")), chart,
             el("p", {class: "muted chart-hint"}, t("Select a name in the legend to show or hide its line.")),
             el("details", {id: "rating-table-box"}, el("summary", {}, t("Ratings by round as a table")), chartTable),
             el("details", {id: "versus-box"}, el("summary", {}, t("Head to head")), versus),
             el("h2", {}, t("Games")), el("div", {class: "controls"}, t("entrant"), " ", entrantFilter, " ", t("round"),
                                           " ", roundFilter),
             games);
  let previous = {};
  let state = null;

  // an error's kind in the page's language (the server's words, mjarena.verdicts), else its code
  const kindText = (code) => (state && state.kinds && state.kinds[code]) || code;

  function errorsText(errors) {
    const parts = Object.entries(errors).map(([kind, count]) => `${kindText(kind)} ${count}`);
    return parts.length ? parts.join(", ") : "–";
  }

  function duration(seconds) {
    if (seconds === null || seconds === undefined) return "";
    const s = Math.round(seconds);
    return s < 90 ? t("%(count)s s", {count: s}) : s < 5400 ? t("%(count)s min", {count: Math.round(s / 60)})
      : t("%(count)s h", {count: (s / 3600).toFixed(1)});
  }

  function fillSelect(select, values, every) {
    const current = select.value;
    select.replaceChildren(el("option", {value: ""}, every),
      ...values.map((value) => el("option", {value: String(value), selected: String(value) === current},
                                  String(value))));
  }

  function renderGames() {
    const who = entrantFilter.value;
    const round = roundFilter.value;
    const shown = state.games.slice().reverse().filter((game) =>
      (!who || game.results.some((seat) => seat.bot === who)) && (!round || String(game.round) === round));
    games.replaceChildren(shown.length ? el("table", {class: "list", id: "games-table"},
      el("thead", {}, el("tr", {}, [t("game"), t("round"), t("entrants by seat"), t("results (points)")].map(
        (h, i) => el("th", {class: i === 2 ? "wide" : ""}, h)))),
      el("tbody", {}, shown.map((game) => el("tr", {"data-round": game.round},
        el("td", {}, game.replay ? el("a", {href: `/replays/${game.replay}`}, game.game) : game.game),
        el("td", {}, String(game.round)),
        el("td", {class: "wide"}, game.results.map((seat) => seat.bot).join(", ")),
        el("td", {}, game.results.slice().sort((a, b) => a.rank - b.rank).map((seat) =>
          `${seat.bot} ${seat.points}${seat.reason ? ` (${kindText(seat.reason)})` : ""}`).join(" · "))))))
      : el("p", {class: "muted"}, state.games.length ? t("No game matches the filters.") : t("No game finished yet.")));
  }

  function render() {
    const eta = state.complete ? t("finished") : state.eta_seconds === null ? t("running")
      : t("running, about %(time)s left", {time: duration(state.eta_seconds)});
    summary.textContent = [state.rules, state.format_text || state.format, t("%(count)s round(s)", {count: state.rounds}),
      state.seed === null ? t("secret walls") : t("seed %(seed)s", {seed: state.seed}),
      t("%(played)s of %(total)s games played", {played: state.played, total: state.total}), eta].join(" · ");
    progress.max = Math.max(1, state.total);
    progress.value = state.played;
    const now = {};
    const times = state.times || {};
    const rows = state.standings.map((row) => {
      now[row.bot] = `${row.games}/${row.points}`;
      const changed = previous[row.bot] !== undefined && previous[row.bot] !== now[row.bot];
      const time = times[row.bot];
      return el("tr", {class: changed ? "changed" : "", "data-bot": row.bot},
        el("td", {}, String(row.rank)), el("td", {}, el("b", {}, row.bot)), el("td", {}, String(row.games)),
        el("td", {}, String(row.points)), el("td", {class: "wide"}, row.average_rank === null ? "–"
          : row.average_rank.toFixed(2)),
        el("td", {class: "wide", title: t("OpenSkill ordinal: μ − 3σ")},
           `${row.rating.toFixed(2)} (μ ${row.mu.toFixed(1)} ± σ ${row.sigma.toFixed(1)})`),
        el("td", {class: "wide num"}, time && time.mean_ms !== null ? `${time.mean_ms} / ${time.max_ms}` : "–"),
        el("td", {}, errorsText(row.errors)));
    });
    previous = now;
    standings.replaceChildren(el("table", {class: "list", id: "standings-table"},
      el("thead", {}, el("tr", {}, [t("rank"), t("bot"), t("games"), t("points"), t("avg rank"), t("rating (μ ± σ)"),
                                    t("ms mean / max"), t("errors")].map(
        (h, i) => el("th", {class: [4, 5, 6].includes(i) ? "wide" : ""}, h)))),
      el("tbody", {}, rows)),
      el("p", {class: "muted", id: "rating-note"}, t("Rating: OpenSkill's μ − 3σ, a cautious estimate. House bots, which pad a table to four, are not rated and count for nothing in a game's rating: a bot that met mostly house bots has few rated games, so a wide σ and a low rating, whatever its points, until it meets the other entrants.")));
    const names = state.standings.map((row) => row.bot);
    const h2h = state.head_to_head || {};
    versus.replaceChildren(el("table", {class: "list versus", id: "versus-table"},
      el("thead", {}, el("tr", {}, el("th", {}, t("better / tied / worse than →")),
                         names.map((n) => el("th", {}, n)))),
      el("tbody", {}, names.map((a) => el("tr", {}, el("th", {}, a), names.map((b) => {
        const cell = a === b ? null : (h2h[a] || {})[b];
        return el("td", {class: cell ? (cell[0] > cell[2] ? "ahead" : cell[0] < cell[2] ? "behind" : "") : "muted"},
                  a === b ? "·" : cell ? cell.join(" / ") : "–");
      }))))));
    renderChart();
    fillSelect(entrantFilter, names, t("every entrant"));
    fillSelect(roundFilter, [...new Set(state.games.map((game) => game.round))].sort((x, y) => x - y),
               t("every round"));
    renderGames();
  }

  function flip(item) {
    const name = item.dataset.series;
    const series = [...chart.querySelectorAll(".chart-series")].find((g) => g.dataset.series === name);
    if (!series) return;
    const hidden = series.classList.toggle("chart-hidden");
    item.classList.toggle("chart-off", hidden);
    item.setAttribute("aria-pressed", String(!hidden));
  }

  function renderChart() {
    const drawn = state.rating_chart;
    if (!drawn || shownSvg === drawn.svg) return;  // unchanged: keep the reader's choices as they are
    shownSvg = drawn.svg;
    chart.innerHTML = drawn.svg;  // drawn and escaped by the server (mjarena.charts)
    chartTable.innerHTML = drawn.table;
    for (const item of chart.querySelectorAll(".chart-legend-item")) {
      item.setAttribute("tabindex", "0");
      item.setAttribute("role", "button");
      item.setAttribute("aria-pressed", String(!item.classList.contains("chart-off")));
      if (toggled.has(item.dataset.series)) flip(item);
    }
  }

  function legendItem(event) {
    return event.target.closest ? event.target.closest(".chart-legend-item") : null;
  }

  chart.addEventListener("click", (event) => {
    const item = legendItem(event);
    if (!item) return;
    const name = item.dataset.series;
    if (toggled.has(name)) toggled.delete(name); else toggled.add(name);
    flip(item);
  });
  chart.addEventListener("keydown", (event) => {
    if ((event.key === "Enter" || event.key === " ") && legendItem(event)) {
      event.preventDefault();
      legendItem(event).dispatchEvent(new MouseEvent("click", {bubbles: true}));
    }
  });
  entrantFilter.addEventListener("change", renderGames);
  roundFilter.addEventListener("change", renderGames);

  async function poll() {
    try {
      state = await MJ.json(url);
      status.textContent = t("updated %(time)s", {time: new Date().toLocaleTimeString(document.documentElement.lang)});
      status.className = "muted";
      render();
      document.body.dataset.played = state.played;
      if (state.complete) {
        status.textContent = "";
        return;
      }
    } catch (error) {
      status.textContent = t("cannot read the tournament: %(error)s (trying again)", {error: error.message});
      status.className = "error";
    }
    setTimeout(poll, 1500);
  }
  poll();
})();
