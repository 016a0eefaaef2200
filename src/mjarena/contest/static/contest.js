// The contest's pages: the standings refresh every 2 s until the contest is finished; a team's page reloads
// while a build is pending. No framework, no build step (MJ.el comes from the web app's mj.js when loaded).
"use strict";

(() => {
  const app = document.getElementById("app");
  const mode = app.dataset.mode;

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined) continue;
      if (key === "class") node.className = value;
      else node.setAttribute(key, value);
    }
    for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  function teamLink(team) {
    return el("a", {href: `/teams/${encodeURIComponent(team)}`}, team);
  }

  function drawStandings(data) {
    document.getElementById("state").textContent = data.state.replace("_", " ");
    document.getElementById("round").textContent = String(data.round);
    const body = data.rows.map((row) => el("tr", {"data-team": row.team},
      el("td", {}, String(row.rank)), el("td", {}, teamLink(row.team)), el("td", {}, String(row.points)),
      el("td", {}, String(row.games)),
      el("td", {class: "num"}, row.points_per_game === null ? "—" : row.points_per_game.toFixed(3)),
      el("td", {}, row.version === null ? "—" : `v${row.version}`)));
    const table = document.getElementById("standings-table");
    table.querySelector("tbody").replaceChildren(...body);
    document.body.dataset.games = String(data.rows.reduce((sum, row) => sum + row.games, 0));
  }

  async function poll() {
    const status = document.getElementById("status");
    try {
      const response = await fetch("/api/standings", {headers: {accept: "application/json"}});
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      const data = await response.json();
      drawStandings(data);
      status.textContent = `updated ${new Date().toLocaleTimeString()}`;
      status.className = "muted";
      if (data.state === "finished") return;
    } catch (error) {
      status.textContent = `cannot read the standings: ${error.message} (trying again)`;
      status.className = "error";
    }
    setTimeout(poll, 2000);
  }

  if (mode === "standings") {
    poll();
  } else if (mode === "team" && document.querySelector(".status-pending")) {
    setTimeout(() => location.reload(), 1500);
  }
})();
