// Under a replay: the logged-in team's own bots, turn by turn (request, answer, debug output, standard error).
"use strict";

(async () => {
  const {el} = MJ;
  const app = document.getElementById("app");
  let data;
  try {
    data = await MJ.json(`/api/games/${encodeURIComponent(app.dataset.game)}/turns`);
  } catch (error) {
    return;  // not logged in any more: the replay itself is public
  }
  const seats = Object.entries(data.seats);
  if (!seats.length) return;
  const section = el("section", {id: "turns"}, el("h2", {}, "Your bots in this game"));
  for (const [seat, info] of seats) {
    const rows = info.turns.map((turn, i) => el("tr", {},
      el("td", {}, String(i + 1)), el("td", {}, el("code", {}, turn.request)),
      el("td", {}, turn.response === null ? el("span", {class: "error"}, "no answer") : el("code", {}, turn.response)),
      el("td", {}, el("pre", {class: "debug"}, turn.debug || "")),
      el("td", {}, el("pre", {class: "stderr"}, turn.stderr || ""))));
    section.append(el("h3", {}, `Seat ${seat}: ${info.team} v${info.version}`),
      info.detail ? el("p", {class: "error"}, info.detail) : "",
      el("table", {class: "list", "data-seat": seat},
        el("thead", {}, el("tr", {}, ["#", "request", "answer", "debug", "stderr"].map((h) => el("th", {}, h)))),
        el("tbody", {}, rows)));
  }
  app.append(section);
  document.body.dataset.turns = "ready";
})();
