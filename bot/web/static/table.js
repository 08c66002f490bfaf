// The table page: draws what /api/game/<id> says for this viewer, turns taps into one legal action,
// and follows the game live. Every word comes from the server (the catalogues); nothing here knows
// a game's rules. No build step: plain modern JavaScript.
"use strict";
(() => {
  const W = JSON.parse(document.getElementById("words").textContent);
  const gameId = document.body.dataset.game;
  const api = `/api/game/${gameId}`;
  const $ = (id) => document.getElementById(id);
  let state = null, taps = [], prefix = [], zoom = 1, sending = false, replayOpen = false;
  // Each picture opens at the zoom that makes its smallest tap target TARGET CSS px or more (its
  // box then pans sideways inside itself; the page never does); the buttons zoom from there.
  const TARGET = 44, MAX_ZOOM = 6;
  const pictures = { board: null, panel: null };

  const timeFormat = () => new Intl.DateTimeFormat(state ? state.lang : undefined,
    { dateStyle: "medium", timeStyle: "short" });
  // Server text carries times as {{t:EPOCH}}: said here in the viewer's own time zone.
  const words = (text) => (text || "").replace(/\{\{t:(-?\d+)\}\}/g, (_, s) => timeFormat().format(new Date(Number(s) * 1000)));
  const el = (tag, text, attrs = {}) => {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = words(String(text));
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  };

  function showError(message) {
    const box = $("error");
    box.textContent = message || "";
    box.hidden = !message;
  }

  async function call(url, options = {}) {
    const response = await fetch(url, { credentials: "same-origin", ...options });
    const body = await response.json().catch(() => ({ error: W.live_lost }));
    if (!response.ok) throw new Error(body.error || String(response.status));
    return body;
  }

  async function load() {
    try {
      draw(await call(api));
      showError("");
    } catch (e) { showError(e.message); }
  }

  function candidates() {
    if (!state) return [];
    return state.actions.filter((a) =>
      taps.every((key, i) => a.targets[i] === key) && prefix.every((step, i) => a.path[i] === step));
  }

  function draw(next) {
    const changed = !state || state.version !== next.version;
    state = next;
    if (changed) { taps = []; prefix = []; }
    document.documentElement.lang = state.lang;
    $("title").textContent = words(state.title) + ` #${state.game_id}`;
    $("summary").textContent = words(state.summary);
    $("board-h").textContent = W.board;
    $("choices-h").textContent = W.choices;
    $("panel-h").textContent = W.panel;
    $("players-h").textContent = W.players;
    $("replay-h").textContent = W.replay;
    $("history-h").textContent = W.history;
    $("zoom-in").setAttribute("aria-label", W.zoom_in);
    $("zoom-out").setAttribute("aria-label", W.zoom_out);
    $("zoom-fit").setAttribute("aria-label", W.zoom_fit);
    $("replay-label").textContent = W.replay_step;
    $("replay-latest").textContent = W.latest;
    $("turn-h").textContent = W.your_turn;
    $("turn-line").textContent = state.outcome ? words(state.outcome)
      : state.your_turn ? W.your_turn
      : state.seat === null ? W.spectator + " " + state.lines.map(words).join(" ")
      : state.lines.map(words).join(" ");
    $("deadline").textContent = state.deadline ? W.deadline.replace("{time}", timeFormat().format(new Date(state.deadline * 1000)))
      : state.paused ? W.paused : "";
    if (state.said && state.said.length) $("notice").textContent = state.said.map(words).join(" ");
    drawPicture($("board"), state.board, true);
    pictures.board = state.board;
    $("panel-section").hidden = !state.panel;
    pictures.panel = state.panel;
    if (state.panel) {
      drawPicture($("panel"), state.panel, true);
      const lines = $("panel-lines");
      lines.replaceChildren(...state.panel.lines.map((l) => el("p", l)));
    }
    const players = $("players");
    players.replaceChildren(...state.players.map((p) => {
      const li = el("li", p.name === p.mark ? p.mark : `${p.mark} — ${p.name}`);
      if (p.to_act) li.className = "to-act";
      return li;
    }));
    $("lines").replaceChildren(...state.lines.map((l) => el("p", l)));
    $("history").replaceChildren(...state.history.slice(1).map((l) => el("li", l)));
    drawChoices();
    applyZoom();
    if (replayOpen) openReplay();
  }

  function drawPicture(holder, picture, tappable) {
    holder.replaceChildren();
    if (!picture) return;
    const img = el("img", null, { src: picture.url, alt: W.board, width: picture.width, height: picture.height });
    holder.append(img);
    if (!tappable) return;
    for (const r of picture.regions) {
      const [x0, y0, x1, y1] = r.box;
      const b = el("button", null, { type: "button", "aria-label": words(r.words || r.key), "data-key": r.key });
      b.className = "region";
      Object.assign(b.style, {
        left: `${(100 * x0) / picture.width}%`, top: `${(100 * y0) / picture.height}%`,
        width: `${(100 * (x1 - x0)) / picture.width}%`, height: `${(100 * (y1 - y0)) / picture.height}%`,
      });
      b.addEventListener("click", () => tap(r));
      holder.append(b);
    }
  }

  function markRegions() {
    const next = new Set(candidates().map((a) => a.targets[taps.length]).filter(Boolean));
    for (const b of document.querySelectorAll(".region")) {
      b.classList.toggle("next", next.has(b.dataset.key));
      b.classList.toggle("chosen", taps.includes(b.dataset.key));
    }
  }

  function tap(region) {
    $("tapped").textContent = `${W.tapped} ${words(region.words || region.key)}`;
    if (!state || sending) return;
    const before = taps;
    taps = [...taps, region.key];
    const left = candidates();
    if (!left.length) {
      taps = before;
      $("tapped").textContent += ` — ${W.no_move_here}`;
      return;
    }
    if (left.length === 1 && left[0].targets.length === taps.length) return play(left[0].action);
    drawChoices();
  }

  function drawChoices() {
    const left = candidates();
    $("choices-section").hidden = !state || !state.actions.length;
    $("question").textContent = words(state && state.question);
    const path = $("path");
    path.replaceChildren();
    if (taps.length || prefix.length) {
      const back = el("button", W.back, { type: "button" });
      back.addEventListener("click", () => { if (prefix.length) prefix.pop(); else taps.pop(); drawChoices(); });
      const again = el("button", W.start_over, { type: "button" });
      again.addEventListener("click", () => { taps = []; prefix = []; drawChoices(); });
      path.append(back, again);
    }
    // The menus' drill-down: the next step of every action still possible, as buttons.
    const groups = new Map();
    for (const a of left) {
      const depth = prefix.length;
      const step = depth < a.path.length ? a.path[depth] : a.action;
      if (!groups.has(step)) groups.set(step, { label: a.steps[depth] || a.words, actions: [] });
      groups.get(step).actions.push(a);
    }
    const buttons = [];
    for (const [step, group] of groups) {
      const only = group.actions.length === 1 ? group.actions[0] : null;
      const final = only && only.path.length <= prefix.length + 1;
      const label = final ? only.words : group.label;
      const b = el("button", label, { type: "button" });
      b.addEventListener("click", () => {
        if (final) play(only.action);
        else { prefix = [...prefix, step]; drawChoices(); }
      });
      buttons.push(b);
    }
    $("choices").replaceChildren(...buttons);
    markRegions();
  }

  async function play(action) {
    if (sending) return;
    sending = true;
    $("notice").textContent = W.sending;
    try {
      const body = JSON.stringify({ action, version: state.version, csrf: state.csrf });
      const next = await call(`${api}/move`, { method: "POST", body, headers: { "Content-Type": "application/json" } });
      showError("");
      $("notice").textContent = "";
      draw(next);
    } catch (e) {
      $("notice").textContent = "";
      showError(e.message);
      taps = []; prefix = [];
      drawChoices();
    } finally { sending = false; }
  }

  // The least zoom at which every region of ``picture`` is TARGET px wide and tall in ``frame``.
  function leastZoom(picture, frame) {
    const width = frame.clientWidth;
    if (!picture || !picture.regions.length || !width) return 1;
    const smallest = Math.min(...picture.regions.map(({ box: [x0, y0, x1, y1] }) => Math.min(x1 - x0, y1 - y0)));
    // 1% over, rounded up: layout snaps boxes to fractions of a pixel.
    const least = Math.ceil((100 * 1.01 * TARGET * picture.width) / (Math.max(1, smallest) * width)) / 100;
    return Math.min(MAX_ZOOM, Math.max(1, least));
  }

  function applyZoom() {
    for (const id of ["board", "panel"]) {
      const holder = $(id), frame = holder.parentElement;
      const least = leastZoom(pictures[id], frame);
      const shown = Math.min(Math.max(least, MAX_ZOOM), Math.max(least, zoom));
      const before = frame.scrollWidth > frame.clientWidth ? (frame.scrollLeft + frame.clientWidth / 2) / frame.scrollWidth : null;
      holder.style.width = `${shown * 100}%`;
      holder.dataset.zoom = shown.toFixed(3);
      holder.dataset.leastZoom = least.toFixed(3);
      // Zooming keeps the middle of what was seen in the middle; a first zoom shows the middle.
      frame.scrollLeft = Math.max(0, (before === null ? 0.5 : before) * frame.scrollWidth - frame.clientWidth / 2);
    }
  }
  $("zoom-in").addEventListener("click", () => { zoom = Math.min(MAX_ZOOM, zoom * 1.5); applyZoom(); });
  $("zoom-out").addEventListener("click", () => { zoom = Math.max(1, zoom / 1.5); applyZoom(); });
  $("zoom-fit").addEventListener("click", () => { zoom = 1; applyZoom(); });
  let resizing = null;
  window.addEventListener("resize", () => { clearTimeout(resizing); resizing = setTimeout(applyZoom, 100); });

  // The replay: a slider over the steps, each drawn for this viewer by the service.
  async function openReplay(step) {
    replayOpen = true;
    try {
      const r = await call(step === undefined ? `${api}/replay` : `${api}/replay?step=${step}`);
      const slider = $("replay-slider");
      slider.max = String(r.steps);
      slider.value = String(r.step);
      slider.setAttribute("aria-valuetext", `${r.step} / ${r.steps}`);
      $("replay-label").textContent = `${W.replay_step} ${r.step} / ${r.steps}`;
      $("replay-frame").replaceChildren(el("img", null, { src: r.image.url, alt: W.replay, width: r.image.width, height: r.image.height }));
      $("replay-lines").replaceChildren(...r.lines.map((l) => el("p", l)));
    } catch (e) { showError(e.message); }
  }
  $("replay-slider").addEventListener("change", (e) => openReplay(Number(e.target.value)));
  $("replay-latest").addEventListener("click", () => openReplay());
  $("replay-slider").addEventListener("focus", () => { if (!replayOpen) openReplay(); }, { once: true });

  // Live: the server says when the game changed (from any way in); this page then asks again.
  function listen() {
    const source = new EventSource(`${api}/events`, { withCredentials: true });
    source.addEventListener("changed", (e) => {
      $("notice").textContent === W.live_lost && ($("notice").textContent = "");
      const { version } = JSON.parse(e.data);
      if (!state || version !== state.version) load();
    });
    source.onerror = () => { $("notice").textContent = W.live_lost; };
  }

  $("board-h").textContent = W.loading;
  load().then(listen);
})();
