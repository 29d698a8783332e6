// The game page: the board (boards/<game>.js), the legal moves as plain buttons, the log in words,
// live updates from /stream, the replay slider over versions (?at=) and the final score.
import * as api from "./api.js";
import { actionText, h } from "./dom.js";
import { extend, lang, nameOf, t } from "./i18n.js";
import { scoreSection } from "./score.js";
import * as problems from "./problems.js";
import * as tokens from "./tokens.js";
import * as fallback from "./board-fallback.js";
import { whatNow } from "./now.js";
import * as rules from "./rules.js";

extend({
  en: { created: (names) => `A game for ${names}.`, move: "move", byEvent: "event by event" },
  cs: { created: (names) => `Hra pro: ${names}.`, move: "tah", byEvent: "po událostech" },
  pl: { created: (names) => `Gra dla: ${names}.`, move: "ruch", byEvent: "zdarzenie po zdarzeniu" },
});

/** Show game `id` in `root` until `signal` aborts (the page navigates away). */
export async function show(root, id, signal) {
  const held = tokens.get(id);
  const game = new Game(root, id, held, signal);
  await game.start();
  return game;
}

class Game {
  constructor(root, id, held, signal) {
    Object.assign(this, { root, id, signal });
    this.token = held?.token ?? null;
    this.seat = held?.seat ?? null;
    this.events = [];
    this.actions = [];
    this.live = null; // {version, view}
    this.replayAt = null; // a version, or null for the live table
    this.replayTimer = null; // set while a move of the slider waits to be replayed
    this.busy = false;
    this.generation = 0;
  }

  async start() {
    this.summary = (await api.get(`/games/${this.id}`)).body;
    const key = tokens.playerKey();
    if (!this.token && key) {
      // the player key plays the player's seat here, if they hold one (else: a spectator)
      const seat = await api.get(`/games/${this.id}/state`, key).then((r) => r.body.seat, () => null);
      if (seat != null) Object.assign(this, { token: key, seat });
    }
    const [{ body: catalog }, board] = await Promise.all([
      api.get(`/catalog/${this.summary.game}`),
      import(`./boards/${this.summary.game}.js`).catch(() => fallback),
    ]);
    this.catalog = catalog;
    this.board = board;
    this.layout();
    await this.loadEvents();
    await this.refresh();
    const last = this.events.length ? this.events[this.events.length - 1].version : null;
    api.follow(this.id, this.token, last, (event) => this.onEvent(event), this.signal);
  }

  layout() {
    const name = nameOf(this.catalog);
    this.headerEl = h("div", { class: "game-head" });
    this.nowEl = h("p", { class: "now", "data-testid": "now", hidden: true });
    this.noticeEl = h("div", { class: "notice" });
    this.boardEl = h("div", { class: "board", "data-testid": "board", "data-game": this.summary.game, tabindex: "-1" });
    // where the focus was last (a redraw may remove the element that held it, leaving <body>)
    this.boardEl.addEventListener("focusin", () => { this.lastFocusInBoard = true; });
    this.boardEl.addEventListener("focusout", (event) => {
      if (event.relatedTarget) this.lastFocusInBoard = this.boardEl.contains(event.relatedTarget);
    });
    document.addEventListener("pointerdown", (event) => {
      this.lastFocusInBoard = this.boardEl.contains(event.target);
    }, { signal: this.signal });
    this.actionsEl = h("div", { class: "actions", "data-testid": "actions" });
    this.slider = h("input", { type: "range", min: 0, max: 0, step: 1, "data-testid": "replay", "aria-label": t("replay") });
    this.sliderLabel = h("output", { "data-testid": "replay-version" });
    this.slider.addEventListener("input", () => this.scheduleReplay());
    this.byEvent = h("input", { type: "checkbox", "data-testid": "replay-by-event" });
    this.byEvent.addEventListener("change", () => {
      this.replayAt = null;
      this.draw();
    });
    this.replayEl = h("div", { class: "replay" }, h("label", {}, `${t("replay")} `, this.slider), " ", this.sliderLabel,
      h("label", { class: "muted" }, this.byEvent, ` ${t("byEvent")}`));
    this.logEl = h("ol", { class: "log", "data-testid": "log", "aria-live": "polite", tabindex: "0", "aria-label": t("log") });
    this.scoreEl = h("div", { class: "score" });
    this.viewJson = h("pre", { "data-testid": "view-json" });
    this.root.replaceChildren(
      h("div", { class: "game-title" }, h("h2", {}, name), rules.button(this.summary.game)),
      this.headerEl,
      this.nowEl,
      this.noticeEl,
      this.boardEl,
      this.actionsEl,
      this.replayEl,
      this.scoreEl,
      h("section", { class: "log-box" }, h("h3", {}, t("log")), this.logEl),
      h("details", { class: "raw" }, h("summary", {}, "JSON"), this.viewJson),
    );
  }

  async loadEvents() {
    const { body } = await api.get(`/games/${this.id}/events`, this.token);
    this.events = body;
    this.drawLog();
  }

  onEvent(event) {
    const last = this.events.length ? this.events[this.events.length - 1].version : 0;
    if (event.version <= last) return;
    this.events.push(event);
    this.appendLog(event);
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.refresh(), 25); // a burst of events: one refresh
  }

  /** The newest view and (on the caller's turn) actions; the summary once the game is over (its
   * status and result), else kept in step from the view; then everything is redrawn. */
  async refresh() {
    if (this.signal.aborted) return;
    try {
      await this.update();
    } catch (error) {
      if (this.signal.aborted) return;
      this.flash(error);
      clearTimeout(this.retry);
      this.retry = setTimeout(() => this.refresh(), 2000);
    }
  }

  async update() {
    const generation = ++this.generation;
    const { body: state } = await api.get(`/games/${this.id}/state`, this.token);
    const myTurn = this.seat != null && !state.over && state.to_move.includes(this.seat);
    const [offered, summary] = await Promise.all([
      myTurn ? api.get(`/games/${this.id}/actions?final=true`, this.token) : { body: [], response: null },
      state.over ? api.get(`/games/${this.id}`).then((r) => r.body) : { ...this.summary, version: state.version, to_move: state.to_move, deadline: state.deadline },
    ]);
    if (generation !== this.generation) return;
    const wasFinished = this.summary.status === "finished";
    this.summary = summary;
    this.live = { version: state.version, view: state.view, over: state.over };
    // the platform's undo comes last in the list: a button of its own, never a board's move; the
    // moves no undo could take back are asked about before they are sent (play)
    const finals = (offered.response?.headers.get("Kotlik-Final") || "").split(",").filter(Boolean).map(Number);
    this.finals = new Set(finals.map((i) => canon(offered.body[i])));
    this.canUndo = offered.body.some((a) => a.type === "undo");
    this.actions = offered.body.filter((a) => a.type !== "undo");
    if (summary.status === "finished" && !wasFinished) await this.loadEvents(); // the whole log now
    else if (this.board.forgets && state.version !== this.logRead) {
      this.logRead = state.version; // the memory rule hides again what a move showed: the log as a reload shows it
      await this.loadEvents();
    }
    this.draw();
    if (summary.status === "finished" && !this.score) this.loadScore();
    if (summary.status === "scoring") setTimeout(() => this.refresh(), 500);
  }

  async loadScore() {
    try {
      this.score = (await api.get(`/games/${this.id}/score`)).body;
      this.scoreEl.replaceChildren(scoreSection(this.score, this.summary, this.catalog));
    } catch {
      setTimeout(() => this.loadScore(), 700);
    }
  }

  ctx(version, view, replay) {
    return {
      game: this.summary,
      version,
      view,
      seat: this.seat,
      seats: this.summary.seats,
      actions: replay ? [] : this.actions,
      catalog: this.catalog,
      lang: lang(),
      name: (x) => nameOf(x),
      play: (command) => this.play(command),
      replay,
    };
  }

  draw() {
    this.drawHead();
    this.drawNow();
    this.drawSlider();
    // redrawn only when something it shows changed, so a click never lands on a replaced element
    const key = JSON.stringify([this.live.version, this.actions, lang(), this.busy, this.canUndo]);
    if (this.replayAt == null && key !== this.drawn) {
      this.drawn = key;
      this.drawBoard(this.live.version, this.live.view, false);
      this.drawActions();
    }
  }

  drawHead() {
    const s = this.summary;
    const seatName = (n) => s.seats[n]?.name ?? t("seatN", n);
    let turn;
    if (s.status === "finished") turn = `${t("over")}: ${(s.result?.winners || []).map(seatName).join(", ")} ${t("winner")}`;
    else if (s.status === "scoring") turn = t("scoring");
    else if (this.seat != null && s.to_move.includes(this.seat)) turn = t("yourTurn");
    else turn = `${t("notYourTurn")} ${s.to_move.map(seatName).join(", ")}`;
    this.headerEl.replaceChildren(
      h("ul", { class: "players" }, s.seats.map((p) => h("li", {
        class: [s.to_move.includes(p.seat) && s.status === "active" ? "to-move" : "", p.seat === this.seat ? "me" : ""].join(" "),
      }, p.player ? h("a", { href: `#/players/${p.player}`, "data-testid": `seat-player-${p.seat}` }, p.name) : p.name,
      p.bot ? ` (${t("bot")})` : "", p.seat === this.seat ? ` — ${t("you")}` : ""))),
      h("p", { class: "turn", role: "status", "data-testid": "turn", "data-status": s.status }, turn),
      ...(s.status === "active" && s.deadline ? [h("p", { class: "clock", "data-testid": "deadline", "data-deadline": s.deadline },
        `${t("deadline")} ${new Date(s.deadline).toLocaleString(lang())}`)] : []),
      ...(this.seat == null ? [h("p", { class: "muted" }, t("spectator"))] : this.endings(s)),
    );
  }

  /** The "what to do now" line (unless the board says it itself, or a past table is shown). */
  drawNow() {
    const said = this.board.saysWhatToDo || this.replayAt != null ? "" : whatNow(this.summary, this.seat, this.actions);
    this.nowEl.textContent = said;
    this.nowEl.hidden = !said;
  }

  /** A seat's way out of a running game (resign) and into the next one (rematch, once). */
  endings(s) {
    if (s.status === "active") {
      const ask = h("input", { type: "checkbox", "data-testid": "ask-final", checked: askFinal() || undefined,
        onchange: (e) => localStorage.setItem(ASK_FINAL, e.target.checked ? "yes" : "no") });
      return [
        h("button", { type: "button", "data-testid": "undo", disabled: this.busy || !this.canUndo, onclick: () => this.undo() }, t("undo")),
        h("label", { class: "ask-final" }, ask, " ", t("askFinal")),
        h("button", { type: "button", "data-testid": "resign", disabled: this.busy, onclick: () => this.resign() }, t("resign")),
      ];
    }
    if (s.status !== "finished") return [];
    if (s.rematch) return [h("a", { href: `#/game/${s.rematch}`, "data-testid": "rematch-link" }, t("rematch"))];
    return [h("button", { type: "button", "data-testid": "rematch", disabled: this.busy, onclick: () => this.rematch() }, t("rematch"))];
  }

  /** Take back this seat's newest move of the turn (the platform's undo). */
  async undo() {
    if (this.canUndo) await this.play({ type: "undo" });
  }

  async resign() {
    if (this.busy || !confirm(t("confirmResign"))) return;
    this.busy = true;
    try {
      const body = await api.post(`/games/${this.id}/resign`, {}, this.token);
      for (const event of body.events) this.onEvent(event);
    } catch (error) {
      this.flash(error);
    } finally {
      this.busy = false;
      await this.refresh();
    }
  }

  /** Start the rematch (with this seat's entropy): keep this seat's new token, show the other seats'
   * invite links, go there. */
  async rematch() {
    if (this.busy) return;
    this.busy = true;
    try {
      // This seat's entropy from this browser keys the rematch's deal too, as when a game is created.
      const { entropy } = await import("./create.js");
      const body = this.seat != null ? { seats: [{ seat: this.seat, entropy: entropy() }] } : {};
      const game = await api.post(`/games/${this.id}/rematch`, body, this.token);
      const mine = game.seats[this.seat];
      if (mine?.token) tokens.put(game.id, this.seat, mine.token);
      const invites = game.seats.filter((p) => p.token && p.seat !== this.seat).map((p) => {
        const link = `${location.origin}${location.pathname}#/play/${game.id}?seat=${p.seat}&token=${encodeURIComponent(p.token)}`;
        return h("li", {}, `${p.name}: `, h("input", { readonly: true, value: link, "data-testid": "invite-link" }));
      });
      location.hash = `#/game/${game.id}`;
      if (invites.length) setTimeout(() => document.querySelector(".notice")?.replaceChildren(h("p", {}, t("invites")), h("ul", {}, invites)), 300);
    } catch (error) {
      this.flash(error);
    } finally {
      this.busy = false;
    }
  }

  /** The versions the slider stops at: the table before the first move, then after each move (a
   * seat's command and everything that followed from it); or every version, event by event. */
  steps() {
    const first = this.events.findIndex((e) => e.command != null);
    if (first < 0) return [this.live.version];
    const start = this.events[first].version - 1;
    if (this.byEvent.checked) return Array.from({ length: this.live.version - start + 1 }, (_, i) => start + i);
    const out = [start];
    let last = null;
    for (const e of this.events.slice(first)) {
      const key = e.command != null ? JSON.stringify([e.seat, e.command, e.recorded_at]) : `v${e.version}`;
      if (key === last) out[out.length - 1] = e.version;
      else out.push(e.version);
      last = key;
    }
    if (out[out.length - 1] < this.live.version) out.push(this.live.version);
    return out;
  }

  drawSlider() {
    const steps = this.steps();
    this.stepVersions = steps;
    this.slider.min = "0";
    this.slider.max = String(steps.length - 1);
    this.slider.dataset.steps = JSON.stringify(steps);
    // A move that arrives while the slider waits to replay must not snap it back to the live table.
    if (this.replayAt == null && this.replayTimer == null) this.slider.value = String(steps.length - 1);
    this.slider.disabled = steps.length < 2;
    const at = this.replayAt ?? this.live.version;
    const index = Math.max(0, steps.findIndex((v) => v >= at));
    this.slider.setAttribute("aria-valuetext", `${index} / ${steps.length - 1}`);
    this.sliderLabel.textContent = this.replayAt == null
      ? `${t("move")} ${steps.length - 1} (${t("live")})`
      : `${t("move")} ${index} / ${steps.length - 1}`;
    this.followLog(at);
  }

  /** The log follows the table shown: later lines dimmed, the shown move's lines marked and in view. */
  followLog(version) {
    let current = null;
    for (const li of this.logEl.children) {
      const v = Number(li.dataset.version);
      li.classList.toggle("later", v > version);
      li.toggleAttribute("aria-current", v === version);
      if (v <= version) current = li;
    }
    if (current && this.replayAt != null) {
      this.logEl.scrollTop = current.offsetTop - this.logEl.offsetTop - this.logEl.clientHeight / 2;
    }
  }

  /** A log line's number was clicked: show the table after the move it belongs to. */
  jumpTo(version) {
    const steps = this.stepVersions || this.steps();
    const index = steps.findIndex((v) => v >= version);
    this.slider.value = String(index < 0 ? steps.length - 1 : index);
    this.scheduleReplay();
  }

  scheduleReplay() {
    clearTimeout(this.replayTimer);
    this.replayTimer = setTimeout(() => {
      this.replayTimer = null;
      const steps = this.stepVersions || this.steps();
      this.replay(steps[Math.min(Number(this.slider.value), steps.length - 1)]);
    }, 120);
  }

  async replay(version) {
    if (version >= this.live.version) {
      this.replayAt = null;
      this.draw();
      return;
    }
    this.replayAt = version;
    this.drawSlider();
    this.drawNow();
    let body;
    try {
      ({ body } = await api.get(`/games/${this.id}/state?at=${version}`, this.token));
    } catch (error) {
      this.flash(error);
      return;
    }
    if (this.replayAt !== version) return;
    this.drawn = null;
    this.drawBoard(version, body.view, true);
    this.drawActions();
  }

  drawBoard(version, view, replay) {
    this.boardEl.dataset.version = String(version);
    this.boardEl.dataset.replay = String(replay);
    const ctx = this.ctx(version, view, replay);
    // the board had the keyboard's focus: now, or just before a click replaced what held it
    const active = document.activeElement;
    const hadFocus = this.boardEl.contains(active) || (this.lastFocusInBoard && (!active || active === document.body));
    try {
      this.board.render(this.boardEl, ctx);
    } catch (error) {
      console.error(error);
      fallback.render(this.boardEl, ctx);
    }
    if (hadFocus) {
      // a keyboard player keeps their place: the next thing to act on, else the board itself
      const next = this.boardEl.querySelector("[data-action], [data-select]");
      (next || this.boardEl).focus();
    }
    this.viewJson.textContent = JSON.stringify(view, null, 1);
  }

  drawActions() {
    const actions = this.replayAt == null ? this.actions : [];
    // the plain list: every game stays playable where a board has no click target; folded under
    // a real board, open under the fallback
    const list = h("details", { open: this.board === fallback || undefined },
      h("summary", {}, `${t("actions")} (${actions.length})`),
      actions.length
        ? h("div", { class: "action-list" }, actions.map((body, i) => h("button", {
          type: "button", "data-testid": "action-button", "data-index": i, disabled: this.busy,
          onclick: () => this.play(body),
        }, actionText(body))))
        : h("p", { class: "muted" }, t("noActions")));
    this.actionsEl.replaceChildren(list);
  }

  async play(command) {
    if (this.busy) return;
    if (askFinal() && this.finals?.has(canon(command)) && !confirm(t("confirmFinal"))) return;
    this.busy = true;
    try {
      const key = crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`;
      const body = await api.post(`/games/${this.id}/commands`, { ...command, expected_version: this.live.version }, this.token, { "Idempotency-Key": key });
      this.noticeEl.replaceChildren();
      for (const event of body.events) this.onEvent(event);
    } catch (error) {
      this.flash(error);
    } finally {
      this.busy = false;
      clearTimeout(this.pending); // the events it answered with need no second refresh
      await this.refresh();
    }
  }

  /** A problem to show until the next move succeeds (a stale version, a lost connection). */
  flash(error) {
    const said = problems.describe(error);
    this.noticeEl.replaceChildren(h("p", { class: "problem", role: "alert", "data-testid": "problem", title: said.detail }, said.text));
  }

  describe(event) {
    if (event.type === "kotlik.GameCreated") {
      return t("created", (event.data?.seats || this.summary.seats).map((s) => s.name).join(", "));
    }
    if (event.type === "kotlik.GameScored") {
      const seats = event.data?.score?.seats || [];
      return `${t("score")}: ${seats.map((s) => `${this.summary.seats[s.seat]?.name ?? s.seat} ${s.total ?? s.left ?? ""}`).join(", ")}`;
    }
    if (event.type === "kotlik.Undone") {
      return `${this.summary.seats[event.data.seat]?.name ?? t("seatN", event.data.seat)}: ${t("undone")}`;
    }
    if (event.type === "kotlik.SeatResigned") {
      const who = this.summary.seats[event.data.seat]?.name ?? t("seatN", event.data.seat);
      return `${who}: ${t(event.data.reason === "forfeit" ? "forfeited" : "resigned")}`;
    }
    try {
      return (this.board.describe || fallback.describe)(event, this.ctx(event.version, null, false));
    } catch {
      return fallback.describe(event, this.ctx(event.version, null, false));
    }
  }

  drawLog() {
    this.logEl.replaceChildren(...this.events.map((e) => this.logLine(e)));
  }

  appendLog(event) {
    this.logEl.append(this.logLine(event));
    this.logEl.scrollTop = this.logEl.scrollHeight;
  }

  logLine(event) {
    const text = this.describe(event);
    if (!text) return "";
    const jump = h("button", { type: "button", class: "log-jump", "aria-label": `${t("replay")} ${event.version}`, onclick: () => this.jumpTo(event.version) }, `${event.version}.`);
    return h("li", { "data-version": event.version }, jump, " ", text);
  }
}

/** Whether to ask before a move no undo could take back: on unless the player turned it off. */
const ASK_FINAL = "kotlik.askFinal";
function askFinal() {
  return localStorage.getItem(ASK_FINAL) !== "no";
}

/** A command as text with its keys sorted, so a board's body and the listed one compare equal. */
function canon(value) {
  if (Array.isArray(value)) return `[${value.map(canon).join(",")}]`;
  if (value && typeof value === "object") return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canon(value[k])}`).join(",")}}`;
  return JSON.stringify(value);
}
