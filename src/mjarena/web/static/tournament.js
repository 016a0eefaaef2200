// A tournament's standings and games, fetched again every 1.5 s until every game is played.
"use strict";

(() => {
  const {el} = MJ;
  const app = document.getElementById("app");
  const status = document.getElementById("status");
  const name = app.dataset.tournament;
  const url = `/api/tournaments/${name.split("/").map(encodeURIComponent).join("/")}`;
  const summary = el("p", {id: "summary", "aria-live": "polite"});
  const progress = el("progress", {id: "progress", max: 1, value: 0});
  const standings = el("div", {id: "standings"});
  const games = el("div", {id: "games"});
  app.append(summary, progress, el("h2", {}, "Standings"), standings, el("h2", {}, "Games"), games);
  let previous = {};

  function errorsText(errors) {
    const parts = Object.entries(errors).map(([kind, count]) => `${kind} ${count}`);
    return parts.length ? parts.join(", ") : "–";
  }

  function render(state) {
    summary.textContent = `${state.rules} · ${state.format} · ${state.rounds} round(s) · seed ${state.seed} · ` +
      `${state.played} of ${state.total} games played` + (state.complete ? " · finished" : " · running");
    progress.max = Math.max(1, state.total);
    progress.value = state.played;
    const now = {};
    const rows = state.standings.map((row) => {
      now[row.bot] = `${row.games}/${row.points}`;
      const changed = previous[row.bot] !== undefined && previous[row.bot] !== now[row.bot];
      return el("tr", {class: changed ? "changed" : "", "data-bot": row.bot},
        el("td", {}, String(row.rank)), el("td", {}, el("b", {}, row.bot)), el("td", {}, String(row.games)),
        el("td", {}, String(row.points)), el("td", {class: "wide"}, row.average_rank === null ? "–"
          : row.average_rank.toFixed(2)),
        el("td", {class: "wide"}, row.rating.toFixed(2)), el("td", {}, errorsText(row.errors)));
    });
    previous = now;
    standings.replaceChildren(el("table", {class: "list", id: "standings-table"},
      el("thead", {}, el("tr", {}, ["rank", "bot", "games", "points", "avg rank", "rating", "errors"].map(
        (h, i) => el("th", {class: i === 4 || i === 5 ? "wide" : ""}, h)))),
      el("tbody", {}, rows)));
    const recent = state.games.slice().reverse();
    games.replaceChildren(recent.length ? el("table", {class: "list", id: "games-table"},
      el("thead", {}, el("tr", {}, el("th", {}, "game"), el("th", {}, "results (points)"))),
      el("tbody", {}, recent.map((game) => el("tr", {},
        el("td", {}, game.replay ? el("a", {href: `/replays/${game.replay}`}, game.game) : game.game),
        el("td", {}, game.results.slice().sort((a, b) => a.rank - b.rank).map((seat) =>
          `${seat.bot} ${seat.points}${seat.reason ? ` (${seat.reason})` : ""}`).join(" · "))))))
      : el("p", {class: "muted"}, "No game finished yet."));
  }

  async function poll() {
    try {
      const state = await MJ.json(url);
      status.textContent = `updated ${new Date().toLocaleTimeString()}`;
      status.className = "muted";
      render(state);
      document.body.dataset.played = state.played;
      if (state.complete) {
        status.textContent = "";
        return;
      }
    } catch (error) {
      status.textContent = `cannot read the tournament: ${error.message} (trying again)`;
      status.className = "error";
    }
    setTimeout(poll, 1500);
  }
  poll();
})();
