// anonymed web page: DOM nodes and textContent only, so note text is never parsed as HTML.
"use strict";

(function () {
  const { $, el, headers, showMessage, errorText } = window.anonymedPage;
  const state = { info: null, result: null, request: null };

  // ---- server information: version, methods, operators --------------------------------------------------
  async function loadInfo() {
    const response = await fetch("/version", { headers: headers() });
    if (response.status === 401) {
      $("server").textContent = "This server needs an API key: enter it below.";
      return;
    }
    if (!response.ok) {
      $("server").textContent = `Server error: ${await errorText(response)}`;
      return;
    }
    state.info = await response.json();
    const info = state.info;
    $("server").textContent =
      `${info.name} ${info.version} · limit ${Math.round(info.max_body_bytes / 1000)} kB, ` +
      `${info.timeout_seconds} s per request`;
    for (const option of $("method").options) {
      const method = info.methods[option.value];
      option.disabled = !method || !method.available;
      option.title = method && method.reason ? method.reason : "";
    }
    for (const option of $("lang").options) option.disabled = !info.languages.includes(option.value);
    buildOperators(info.labels, info.operators);
    updateMethod();
  }

  function buildOperators(labels, operators) {
    const box = $("operators");
    box.replaceChildren();
    for (const label of labels) {
      const select = el("select", { id: `op-${label}`, "data-label": label }, [
        el("option", { value: "", text: "default" }),
        ...operators.map((name) => el("option", { value: name, text: name })),
      ]);
      box.append(el("div", {}, [el("label", { for: select.id, text: label }), select]));
    }
  }

  function updateMethod() {
    const method = $("method").value;
    for (const fieldset of document.querySelectorAll("fieldset[data-methods]")) {
      let shown = fieldset.dataset.methods.split(" ").includes(method);
      if (method === "hybrid" && fieldset.id !== "hybrid-params" && fieldset.id !== "replace-params") {
        shown = fieldset.id === `${$("then").value}-params`;
      }
      fieldset.hidden = !shown;
    }
    const info = state.info && state.info.methods[method];
    $("method-note").textContent = info && !info.available ? info.reason || "not available" : "";
  }

  // ---- request -----------------------------------------------------------------------------------------
  // "KIND: value" lines (a line without a kind is a patient's name); blank lines are skipped
  const KIND_LINE = /^([A-Za-z]+(?:\/[A-Za-z0-9]+)?)\s*:\s*(.+)$/;

  function lines(id) {
    return $(id).value.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  }

  function knownItems() {
    return lines("known").map((line) => {
      const found = KIND_LINE.exec(line);
      return found ? { kind: found[1].toUpperCase(), value: found[2] } : { kind: "NAME/patient", value: line };
    });
  }

  function denyItems() {
    return lines("deny").map((line) => {
      const found = KIND_LINE.exec(line);
      return found ? { term: found[2], label: found[1].toUpperCase() } : { term: line };
    });
  }

  function addSite(body) {
    const known = knownItems();
    const allow = lines("allow").map((term) => ({ term }));
    const deny = denyItems();
    if (known.length) body.known = known;
    if (allow.length) body.allow = allow;
    if (deny.length) body.deny = deny;
  }

  function buildRequest() {
    const method = $("method").value;
    const body = { text: $("note").value, lang: $("lang").value, method };
    const seed = $("seed").value.trim();
    if (seed !== "") body.seed = Number(seed);
    if (method === "replace" || method === "hybrid") {
      const operators = {};
      for (const select of $("operators").querySelectorAll("select")) {
        if (select.value) operators[select.dataset.label] = select.value;
      }
      body.operators = operators;
      const epsilon = $("epsilon").value.trim();
      if (epsilon !== "") body.epsilon = Number(epsilon);
    }
    if (method === "words" || (method === "hybrid" && $("then").value === "words")) {
      const n = $("n").value.trim();
      body.n = /^\d+$/.test(n) ? Number(n) : n;
    }
    if (method === "sentences" || (method === "hybrid" && $("then").value === "sentences")) {
      body.k = Number($("k").value);
    }
    if (method === "hybrid") body.then = $("then").value;
    addSite(body);
    return body;
  }

  async function run(event) {
    event.preventDefault();
    const body = buildRequest();
    if (!body.text.trim()) {
      showMessage("Paste or upload a note first.");
      return;
    }
    $("run").disabled = true;
    showMessage("Working…", "info");
    try {
      const response = await fetch("/deid", { method: "POST", headers: headers(), body: JSON.stringify(body) });
      if (!response.ok) {
        showMessage(`Error ${response.status}: ${await errorText(response)}`);
        return;
      }
      const result = await response.json();
      state.result = result;
      state.request = body;
      showMessage("");
      render(body.text, result);
      if (!state.info) loadInfo();
    } catch (error) {
      showMessage(`Could not reach the server (${error.message}).`);
    } finally {
      $("run").disabled = false;
    }
  }

  // ---- rendering ---------------------------------------------------------------------------------------
  // Offsets from the server count Unicode code points; JavaScript strings count UTF-16 units.
  function highlight(chars, items, makeMark) {
    const nodes = [];
    let cursor = 0;
    for (const item of items) {
      if (item.start < cursor) continue;
      if (item.start > cursor) nodes.push(document.createTextNode(chars.slice(cursor, item.start).join("")));
      nodes.push(makeMark(item, chars.slice(item.start, item.end).join("")));
      cursor = item.end;
    }
    if (cursor < chars.length) nodes.push(document.createTextNode(chars.slice(cursor).join("")));
    return nodes;
  }

  function spanMark(span, text) {
    const label = span.subtype ? `${span.label}/${span.subtype}` : span.label;
    const title = `${label} · score ${Number(span.score).toFixed(2)} · ${span.source}`;
    return el("mark", { className: `phi lab-${span.label}`, "data-label": span.label, title, text });
  }

  function surrogateMarks(result) {
    // place each surrogate in the output: the offsets of replacements are into the original text
    const items = [];
    let shift = 0;
    const sorted = [...result.replacements].sort((a, b) => a.start - b.start);
    for (const rep of sorted) {
      const length = Array.from(rep.surrogate).length;
      items.push({ start: rep.start + shift, end: rep.start + shift + length, rep });
      shift += length - (rep.end - rep.start);
    }
    return highlight(Array.from(result.output), items, (item, text) =>
      el("mark", {
        className: `surrogate lab-${item.rep.label}`,
        "data-label": item.rep.label,
        title: `${item.rep.label} · ${item.rep.operator}`,
        text,
      }),
    );
  }

  function render(text, result) {
    const spans = [...result.spans].sort((a, b) => a.start - b.start);
    $("original").replaceChildren(...highlight(Array.from(text), spans, spanMark));
    const mapped = result.method === "replace" && result.replacements.length > 0;
    $("output").replaceChildren(...(mapped ? surrogateMarks(result) : [document.createTextNode(result.output)]));
    renderLegend(spans);
    renderPrivacy(result.privacy || {});
    $("stats").textContent =
      `${spans.length} spans · ${result.replacements.length} replacements · ${result.elapsed_ms} ms` +
      (result.seeded ? " · seeded: reproducible by anyone with the seed" : "");
    $("results").hidden = false;
    $("download").disabled = false;
  }

  function renderLegend(spans) {
    const counts = new Map();
    for (const span of spans) counts.set(span.label, (counts.get(span.label) || 0) + 1);
    const labels = state.info ? state.info.labels : [...counts.keys()];
    const chips = labels
      .filter((label) => counts.has(label))
      .map((label) => el("span", { className: `chip lab-${label}`, text: `${label} ${counts.get(label)}` }));
    if (chips.length === 0) chips.push(el("span", { className: "muted", text: "No PHI found." }));
    $("legend").replaceChildren(...chips);
  }

  function formatValue(value) {
    if (value === null || value === undefined) return "—";
    if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(4);
    if (typeof value === "object") return JSON.stringify(value);
    return String(value);
  }

  function renderPrivacy(privacy) {
    const summary = $("privacy-summary");
    summary.replaceChildren();
    const rows = [];
    const add = (key, value) => rows.push(el("dt", { text: key }), el("dd", { text: formatValue(value) }));
    for (const [key, value] of Object.entries(privacy)) {
      if (key === "expenses") continue;
      if (value && typeof value === "object" && !Array.isArray(value)) {
        for (const [sub, subValue] of Object.entries(value)) add(`${key} ${sub}`, subValue);
      } else {
        add(key, value);
      }
    }
    summary.append(...rows);
    const expenses = privacy.expenses || [];
    const body = $("expenses").querySelector("tbody");
    body.replaceChildren(
      ...expenses.map((e) =>
        el("tr", {}, [
          el("td", { text: e.label }),
          el("td", { text: `${e.start}–${e.end}` }),
          el("td", { text: formatValue(e.epsilon) }),
          el("td", { text: e.mechanism || "" }),
        ]),
      ),
    );
    $("expenses").hidden = expenses.length === 0;
    $("privacy").hidden = rows.length === 0 && expenses.length === 0;
  }

  // ---- files -------------------------------------------------------------------------------------------
  function download() {
    if (!state.result) return;
    // the record's known identifiers are secrets: not copied into the file
    const { text, known, ...parameters } = state.request;
    if (known) parameters.known = `${known.length} identifiers (not saved)`;
    const payload = { parameters, original: text, result: state.result };
    const blob = new Blob([JSON.stringify(payload, null, 2)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const link = el("a", { href: url, download: `${state.result.id}-anonymized.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  function upload() {
    const file = $("file").files[0];
    if (!file) return;
    const limit = state.info ? state.info.max_body_bytes : Infinity;
    if (file.size > limit) {
      showMessage(`The file is larger than the server's limit (${limit} bytes).`);
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      $("note").value = String(reader.result);
      updateSize();
    };
    reader.onerror = () => showMessage("Could not read the file.");
    reader.readAsText(file);
  }

  function updateSize() {
    const bytes = new TextEncoder().encode($("note").value).length;
    $("size").textContent = bytes ? `${bytes} bytes` : "";
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("form").addEventListener("submit", run);
    $("method").addEventListener("change", updateMethod);
    $("then").addEventListener("change", updateMethod);
    $("download").addEventListener("click", download);
    $("file").addEventListener("change", upload);
    $("note").addEventListener("input", updateSize);
    $("apikey").addEventListener("change", loadInfo);
    updateMethod();
    loadInfo().catch((error) => {
      $("server").textContent = `Could not reach the server (${error.message}).`;
    });
  });
})();
