// The contest's pages: the standings refresh every 2 s until the contest is finished; a team's page reloads
// while a build is pending. No framework, no build step (MJ.el comes from the web app's mj.js when loaded).
"use strict";

(() => {
  const app = document.getElementById("app");
  const mode = app.dataset.mode;
  const wordsNode = document.getElementById("words");
  const words = wordsNode ? JSON.parse(wordsNode.textContent) : {};

  // A message in the page's language (pages.SCRIPT_WORDS gives the translations), its %(name)s filled in.
  function t(message, values = {}) {
    return (words[message] || message).replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
  }

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

  // A time as every page writes it (pages.when): ISO 8601, to the second, with the zone's offset.
  function isoTime(at) {
    const date = new Date(at * 1000);
    const pad = (n) => String(Math.abs(Math.trunc(n))).padStart(2, "0");
    const offset = -date.getTimezoneOffset();
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:` +
      `${pad(date.getMinutes())}:${pad(date.getSeconds())}${offset >= 0 ? "+" : "-"}${pad(offset / 60)}:` +
      `${pad(offset % 60)}`;
  }

  function teamLink(team) {
    return el("a", {href: `/teams/${encodeURIComponent(team)}`}, team);
  }

  function drawStandings(data) {
    document.getElementById("state").textContent = t(data.state.replace("_", " "));
    document.getElementById("round").textContent = String(data.round);
    const body = data.rows.map((row) => el("tr", {"data-team": row.team},
      el("td", {}, String(row.rank)), el("td", {}, teamLink(row.team)), el("td", {}, String(row.points)),
      el("td", {}, String(row.games)),
      el("td", {class: "num"}, row.points_per_game === null ? "—" : row.points_per_game.toFixed(3)),
      el("td", {}, row.version === null ? "—" : `v${row.version}`),
      el("td", {class: "num"}, row.thinking_per_game === null || row.thinking_per_game === undefined ? "—"
        : t("%(mean)s (max %(most)s)", {mean: t("%(seconds)s s", {seconds: row.thinking_per_game.toFixed(2)}),
          most: t("%(seconds)s s", {seconds: row.thinking_max.toFixed(2)})}))));
    const table = document.getElementById("standings-table");
    table.querySelector("tbody").replaceChildren(...body);
    document.body.dataset.games = String(data.rows.reduce((sum, row) => sum + row.games, 0));
  }

  // The organiser's announcements (and, on a team's page, its own questions), as pages.messages_list draws them.
  function drawMessages(announcements, questions = []) {
    const list = document.getElementById("messages");
    if (!list) return;
    const asked = new Map(questions.map((item) => [item.id, item]));
    const answered = new Set(announcements.map((item) => item.question).filter((id) => id !== null));
    const when = isoTime;
    const items = announcements.map((item) => {
      const question = asked.get(item.question);
      return el("li", {"data-announcement": item.id},
        el("span", {class: "muted"}, `${when(item.at)} · ${item.team === null ? t("to every team") : t("to %(team)s only", {team: item.team})}`),
        question ? el("blockquote", {class: "question"}, question.text) : null,
        el("p", {class: "message-text"}, item.text));
    });
    for (const item of questions) {
      if (answered.has(item.id)) continue;
      items.push(el("li", {"data-question": item.id},
        el("span", {class: "muted"}, `${when(item.at)} · ${t("your question, not answered yet")}`),
        el("blockquote", {class: "question"}, item.text)));
    }
    list.replaceChildren(...items);
    const section = document.getElementById("announcements");
    if (section) section.hidden = items.length === 0;
  }

  function drawWaiting(waiting) {
    const note = document.getElementById("waiting");
    if (!note) return;
    note.hidden = !waiting;
    let text = waiting ? t("The rounds open when %(needed)s teams have a bot that builds: %(ready)s have one.",
      waiting) : "";
    if (waiting && waiting.deadline != null) {
      text = t("The rounds open when %(needed)s teams have a bot that builds: %(ready)s have one; or at " +
        "%(deadline)s, with the teams that have one then.", {...waiting, deadline: isoTime(waiting.deadline)});
    }
    note.textContent = text;
  }

  // The race chart (drawn by the server): "show all" reveals the teams past the top ten, a legend entry shows or
  // hides its team; the chart is fetched again when the number of games played changes, keeping what was shown.
  let showAll = false;
  let chartGames = null;

  function showSeries(figure, name, shown) {
    for (const node of figure.querySelectorAll(".chart-series, .chart-legend-item")) {
      if (name !== null && node.dataset.series !== name) continue;
      node.classList.toggle(node.classList.contains("chart-series") ? "chart-hidden" : "chart-off", !shown);
    }
  }

  // Both figures (the totals and the points behind the leader) show and hide the same teams.
  function raceFigures() {
    return [...document.querySelectorAll("#race .chart-figure")];
  }

  function wireRace() {
    const figures = raceFigures();
    if (!figures.length) return;
    const button = document.getElementById("race-all");
    if (showAll) for (const figure of figures) showSeries(figure, null, true);
    if (button) {
      button.setAttribute("aria-pressed", String(showAll));
      button.textContent = showAll ? t("Show the top ten") : button.textContent;
    }
  }

  document.addEventListener("click", (event) => {
    const figures = raceFigures();
    if (!figures.some((figure) => figure.contains(event.target))) return;
    if (event.target.closest("#race-all")) {
      showAll = !showAll;
      if (showAll) for (const figure of figures) showSeries(figure, null, true);
      else refreshRace(true);
      wireRace();
      return;
    }
    const item = event.target.closest(".chart-legend-item");
    if (!item) return;
    const shown = item.classList.contains("chart-off");
    for (const figure of figures) showSeries(figure, item.dataset.series, shown);
  });

  async function refreshRace(force = false) {
    const games = document.body.dataset.games;
    if (!force && games === chartGames) return;
    const response = await fetch("/charts/race", {headers: {accept: "text/html"}});
    if (!response.ok) return;
    document.getElementById("race").innerHTML = await response.text();  // the server escaped every name
    chartGames = games;
    wireRace();
  }

  async function poll() {
    const status = document.getElementById("status");
    try {
      const response = await fetch("/api/standings", {headers: {accept: "application/json"}});
      if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
      const data = await response.json();
      drawStandings(data);
      if (data.announcements) drawMessages(data.announcements);
      drawWaiting(data.waiting);
      const frozen = document.getElementById("frozen");
      if (frozen) {
        frozen.hidden = !data.frozen;
        if (data.frozen) {
          frozen.textContent = t("Frozen since %(since)s: the results of the games finished since then are " +
            "revealed at the prize-giving (each team still sees its own).", {since: isoTime(data.frozen.since)});
        }
      }
      if (chartGames === null) chartGames = document.body.dataset.games;  // the page came with the chart drawn
      await refreshRace();
      status.textContent = t("updated %(when)s", {when: isoTime(Date.now() / 1000)});
      status.className = "muted";
      if (data.state === "finished" && !data.frozen) return;  // frozen: until the reveal
    } catch (error) {
      status.textContent = t("cannot read the standings: %(error)s (trying again)", {error: error.message});
      status.className = "error";
    }
    setTimeout(poll, 2000);
  }

  // A team's page: its announcements and answers as they come (every 5 s).
  async function pollMessages() {
    try {
      const response = await fetch("/api/announcements", {headers: {accept: "application/json"}});
      if (response.ok) {
        const data = await response.json();
        drawMessages(data.announcements, data.questions);
      }
    } catch (error) {
      // the next try will do
    }
    setTimeout(pollMessages, 5000);
  }

  if (mode === "standings") {
    poll();
  } else if (mode === "team" && document.querySelector(".status-pending")) {
    setTimeout(() => location.reload(), 1500);
  } else if (mode === "team") {
    setTimeout(pollMessages, 5000);
  }
})();
