// anonymed review page: DOM nodes and textContent only, so note text is never parsed as HTML.
// Offsets from and to the server count Unicode code points; JavaScript strings count UTF-16 units.
"use strict";

(function () {
  const { $, el, headers, showMessage, errorText } = window.anonymedPage;
  const REVIEWER = /^[A-Za-z0-9._-]{1,64}$/;
  const state = { info: null, reviewer: null, position: 0, note: null, chars: [], items: [], focus: -1, done: [] };

  async function call(path, options) {
    const response = await fetch(path, { ...(options || {}), headers: headers() });
    if (!response.ok) {
      const detail = await errorText(response);
      throw new Error(response.status === 401 ? "this server needs an API key" : `Error ${response.status}: ${detail}`);
    }
    return response.json();
  }

  const who = () => `reviewer=${encodeURIComponent(state.reviewer)}`;
  const positionKey = () => `anonymed-review-position:${state.reviewer}`;

  // ---- starting, navigating -------------------------------------------------------------------------
  async function start() {
    const reviewer = $("reviewer").value.trim();
    if (!REVIEWER.test(reviewer)) {
      showMessage("A reviewer id is 1-64 letters, digits, '.', '_' or '-'.");
      return;
    }
    state.reviewer = reviewer;
    localStorage.setItem("anonymed-reviewer", reviewer);
    try {
      state.info = await call("/api/info");
      $("server").textContent =
        `${state.info.name} ${state.info.version} · ${state.info.notes} notes · detectors ` +
        `${state.info.detectors.join(", ")} · input ${state.info.input.slice(0, 19)}…`;
      buildLabels();
      const progress = await call(`/api/progress?${who()}`);
      state.done = progress.done;
      const saved = Number(localStorage.getItem(positionKey()));
      const firstOpen = state.done.indexOf(false);
      const position = Number.isInteger(saved) && saved >= 0 && saved < state.info.notes ? saved : Math.max(0, firstOpen);
      $("workspace").hidden = false;
      showMessage("");
      await load(position);
    } catch (error) {
      showMessage(error.message);
    }
  }

  async function load(position) {
    if (!state.info || position < 0 || position >= state.info.notes) return;
    const note = await call(`/api/notes/${position}?${who()}`);
    state.position = position;
    state.note = note;
    state.chars = Array.from(note.text);
    state.focus = -1;
    localStorage.setItem(positionKey(), String(position));
    render();
  }

  async function go(delta) {
    try {
      await load(state.position + delta);
    } catch (error) {
      showMessage(error.message);
    }
  }

  // ---- rendering -------------------------------------------------------------------------------------
  function buildLabels() {
    const box = $("labels");
    box.replaceChildren(
      ...state.info.top_labels.map((label, i) =>
        el("button", { type: "button", className: `lab-${label}`, "data-label": label, text: `${i + 1} ${label}` }),
      ),
    );
  }

  function decisionOf(span) {
    for (const d of state.note.state.decisions) if (d.start === span.start && d.end === span.end) return d;
    return null;
  }

  function buildItems() {
    const items = state.note.spans.map((span) => {
      const d = decisionOf(span);
      const label = d && d.decision === "relabel" ? d.label : span.label;
      return { kind: "span", start: span.start, end: span.end, label, detected: span.label,
               decision: d ? d.decision : null, score: span.score, source: span.source };
    });
    for (const m of state.note.state.marks) items.push({ kind: "mark", start: m.start, end: m.end, label: m.label });
    return items.sort((a, b) => a.start - b.start);
  }

  function itemClass(item) {
    const top = item.label.split("/")[0];
    if (item.kind === "mark") return `missed lab-${top}`;
    const kind = { accept: "accepted", reject: "rejected", relabel: "relabelled" }[item.decision] || "undecided";
    return `phi lab-${top} ${kind}`;
  }

  function itemTitle(item) {
    if (item.kind === "mark") return `missed PHI · ${item.label}`;
    const verdict = item.decision || "undecided";
    const relabel = item.label !== item.detected ? ` (was ${item.detected})` : "";
    return `${item.label}${relabel} · ${verdict} · score ${item.score} · ${item.source}`;
  }

  function render() {
    state.items = buildItems();
    const nodes = [];
    let cursor = 0;
    state.items.forEach((item, index) => {
      if (item.start > cursor) nodes.push(segment(cursor, item.start));
      const mark = el("mark", {
        className: itemClass(item) + (index === state.focus ? " focus" : ""),
        "data-start": String(item.start), "data-index": String(index), "data-kind": item.kind,
        title: itemTitle(item), text: state.chars.slice(item.start, item.end).join(""),
      });
      nodes.push(mark);
      cursor = item.end;
    });
    if (cursor < state.chars.length) nodes.push(segment(cursor, state.chars.length));
    $("note").replaceChildren(...nodes);
    const done = state.note.state.done;
    state.done[state.position] = done;
    const count = state.done.filter(Boolean).length;
    $("position").textContent = `note ${state.position + 1} of ${state.info.notes} (id ${state.note.id})`;
    $("progress").textContent = `${count} done by ${state.reviewer}`;
    $("status").textContent = done ? "done" : "";
    $("status").className = done ? "status done" : "status";
    $("prev").disabled = state.position === 0;
    $("next").disabled = state.position >= state.info.notes - 1;
    renderFocus();
  }

  function segment(start, end) {
    return el("span", { className: "seg", "data-start": String(start), text: state.chars.slice(start, end).join("") });
  }

  function renderFocus() {
    const item = state.items[state.focus];
    for (const mark of $("note").querySelectorAll("mark")) {
      mark.classList.toggle("focus", Number(mark.dataset.index) === state.focus);
    }
    $("focus").textContent = item ? `${state.chars.slice(item.start, item.end).join("")} — ${itemTitle(item)}` : "Nothing selected.";
    const span = item && item.kind === "span";
    $("accept").disabled = $("reject").disabled = $("clear").disabled = !span;
    $("unmark").disabled = !(item && item.kind === "mark");
    const current = $("note").querySelector("mark.focus");
    if (current) current.scrollIntoView({ block: "nearest" });
  }

  function moveFocus(delta) {
    if (state.items.length === 0) return;
    state.focus = state.focus < 0 ? (delta > 0 ? 0 : state.items.length - 1)
                                  : (state.focus + delta + state.items.length) % state.items.length;
    renderFocus();
  }

  // ---- selection to code-point offsets --------------------------------------------------------------
  function boundary(node, offset) {
    const root = $("note");
    let element;
    let within;
    if (node.nodeType === Node.TEXT_NODE) {
      element = node.parentElement;
      within = Array.from(node.textContent.slice(0, offset)).length;
    } else if (node === root) {
      if (offset >= root.childNodes.length) return state.chars.length;
      element = root.childNodes[offset];
      within = 0;
    } else {
      element = node;
      within = offset === 0 ? 0 : Array.from(node.textContent).length;
    }
    while (element && element !== root && element.dataset.start === undefined) element = element.parentElement;
    if (!element || element === root) return null;
    return Number(element.dataset.start) + within;
  }

  function selectedRange() {
    const selection = window.getSelection();
    if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
    const range = selection.getRangeAt(0);
    if (!$("note").contains(range.commonAncestorContainer)) return null;
    let start = boundary(range.startContainer, range.startOffset);
    let end = boundary(range.endContainer, range.endOffset);
    if (start === null || end === null) return null;
    while (start < end && /\s/.test(state.chars[start])) start += 1;
    while (end > start && /\s/.test(state.chars[end - 1])) end -= 1;
    return end > start ? { start, end } : null;
  }

  // ---- actions ------------------------------------------------------------------------------------------
  async function send(action, fields) {
    const body = { reviewer: state.reviewer, note: state.note.key, action, ...(fields || {}) };
    $("status").textContent = "saving…";
    try {
      const answer = await call("/api/decisions", { method: "POST", body: JSON.stringify(body) });
      state.note.state = answer.state;
      const focused = state.items[state.focus];
      render();
      if (focused) {
        state.focus = state.items.findIndex((i) => i.start === focused.start && i.end === focused.end);
        renderFocus();
      }
      $("status").textContent = state.note.state.done ? "done · saved" : "saved";
      $("status").className = "status saved";
      showMessage("");
      return true;
    } catch (error) {
      showMessage(error.message);
      $("status").textContent = "";
      return false;
    }
  }

  function focusedSpan() {
    const item = state.items[state.focus];
    return item && item.kind === "span" ? item : null;
  }

  function decide(action) {
    const item = focusedSpan();
    if (item) send(action, { start: item.start, end: item.end });
  }

  async function applyLabel(label) {
    const range = selectedRange();
    if (range) {
      if (await send("mark", { ...range, label })) window.getSelection().removeAllRanges();
      return;
    }
    const item = state.items[state.focus];
    if (!item) {
      showMessage("Select a highlight, or select text in the note to mark missed PHI.", "info");
    } else if (item.kind === "mark") {
      send("mark", { start: item.start, end: item.end, label });
    } else if (label === item.detected.split("/")[0]) {
      send("accept", { start: item.start, end: item.end });
    } else {
      send("relabel", { start: item.start, end: item.end, label });
    }
  }

  function unmark() {
    const item = state.items[state.focus];
    if (item && item.kind === "mark") {
      send("unmark", { start: item.start, end: item.end }).then(() => { state.focus = -1; renderFocus(); });
    }
  }

  async function finish() {
    if (await send("done")) {
      const next = state.done.indexOf(false, state.position + 1);
      if (next >= 0) await go(next - state.position);
    }
  }

  function onKey(event) {
    if (!state.note || event.target.closest("input, textarea, select") || event.ctrlKey || event.metaKey || event.altKey) return;
    const digit = /^[1-9]$/.test(event.key) ? Number(event.key) : 0;
    const handlers = {
      j: () => moveFocus(1), ArrowDown: () => moveFocus(1), k: () => moveFocus(-1), ArrowUp: () => moveFocus(-1),
      a: () => decide("accept"), r: () => decide("reject"), c: () => decide("clear"),
      Delete: unmark, Backspace: unmark, Enter: finish, o: () => send("reopen"),
      "[": () => go(-1), "]": () => go(1),
    };
    if (digit && digit <= state.info.top_labels.length) {
      event.preventDefault();
      applyLabel(state.info.top_labels[digit - 1]);
    } else if (handlers[event.key]) {
      event.preventDefault();
      handlers[event.key]();
    }
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("start").addEventListener("click", start);
    $("reviewer").addEventListener("keydown", (e) => { if (e.key === "Enter") start(); });
    $("prev").addEventListener("click", () => go(-1));
    $("next").addEventListener("click", () => go(1));
    $("accept").addEventListener("click", () => decide("accept"));
    $("reject").addEventListener("click", () => decide("reject"));
    $("clear").addEventListener("click", () => decide("clear"));
    $("unmark").addEventListener("click", unmark);
    $("done").addEventListener("click", finish);
    $("reopen").addEventListener("click", () => send("reopen"));
    $("labels").addEventListener("mousedown", (e) => e.preventDefault()); // keep the text selection
    $("labels").addEventListener("click", (e) => {
      const button = e.target.closest("button[data-label]");
      if (button) applyLabel(button.dataset.label);
    });
    $("note").addEventListener("click", (e) => {
      const mark = e.target.closest("mark");
      if (mark && window.getSelection().isCollapsed) {
        state.focus = Number(mark.dataset.index);
        renderFocus();
      }
    });
    document.addEventListener("keydown", onKey);
    const saved = localStorage.getItem("anonymed-reviewer");
    if (saved) {
      $("reviewer").value = saved;
      start();
    } else {
      $("server").textContent = "Enter your reviewer id to start.";
    }
  });
})();
